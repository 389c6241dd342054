#include "cluster/patch.h"

#include "core/jsontypename.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>
#include <QSet>
#include <QStringList>

#include <utility>
#include <vector>

namespace Gatehouse::Cluster {

namespace {

// Deeper nesting than this is refused (422) rather than recursed into.
constexpr int kMaxPatchDepth = 64;
// Values quoted in error messages are cut to this many characters.
constexpr qsizetype kMaxQuotedValue = 200;

const QString kDirective = QStringLiteral("$patch");
const QString kRetainKeys = QStringLiteral("$retainKeys");
const QString kDeleteFromPrimitiveListPrefix = QStringLiteral("$deleteFromPrimitiveList/");
const QString kSetElementOrderPrefix = QStringLiteral("$setElementOrder/");

PatchError patchError(int status, const QString &message)
{
    // Messages quote keys and paths from the request, which may hold line breaks.
    QString line;
    line.reserve(message.size());
    for (const QChar c : message) {
        if (c.unicode() < 0x20)
            line += QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
        else
            line += c;
    }
    return PatchError{status, line};
}

// Compact JSON text of any value; QJsonDocument itself only holds objects and arrays.
QByteArray compactJson(const QJsonValue &value)
{
    const QByteArray text = QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
    return text.mid(1, text.size() - 2);
}

QString quoted(const QJsonValue &value)
{
    QString text = QString::fromUtf8(compactJson(value));
    if (text.size() > kMaxQuotedValue) {
        text.truncate(kMaxQuotedValue);
        if (text.back().isHighSurrogate())
            text.chop(1);
        text += QStringLiteral("...");
    }
    return text;
}

QString quoted(const QString &text)
{
    return quoted(QJsonValue(text));
}

// ---- RFC 7386 merge patch ------------------------------------------------------------------

// MergePatch() of RFC 7386 section 2; nullopt when the patch nests deeper than kMaxPatchDepth.
std::optional<QJsonValue> mergePatch(const QJsonValue &target, const QJsonValue &patch, int depth)
{
    if (!patch.isObject())
        return patch;
    if (depth > kMaxPatchDepth)
        return std::nullopt;
    QJsonObject result = target.isObject() ? target.toObject() : QJsonObject();
    const QJsonObject patchObject = patch.toObject();
    for (auto it = patchObject.constBegin(); it != patchObject.constEnd(); ++it) {
        const QJsonValue value = it.value();
        if (value.isNull()) {
            result.remove(it.key());
            continue;
        }
        const std::optional<QJsonValue> merged =
            mergePatch(result.value(it.key()), value, depth + 1);
        if (!merged)
            return std::nullopt;
        result.insert(it.key(), *merged);
    }
    return result;
}

// ---- RFC 6902 JSON patch -------------------------------------------------------------------

enum class Op { Add, Remove, Replace, Move, Copy, Test };

struct Operation
{
    Op op = Op::Add;
    QString name; // as spelled in the patch, for messages
    QString path;
    QStringList pathTokens;
    QString from;
    QStringList fromTokens;
    QJsonValue value;
};

// The reference tokens of an RFC 6901 pointer, unescaped; nullopt if it is not a pointer.
std::optional<QStringList> parsePointer(const QString &pointer)
{
    QStringList tokens;
    if (pointer.isEmpty())
        return tokens;
    if (pointer.front() != QLatin1Char('/'))
        return std::nullopt;
    QString token;
    for (qsizetype i = 1; i < pointer.size(); ++i) {
        const QChar c = pointer.at(i);
        if (c == QLatin1Char('/')) {
            tokens.append(token);
            token.clear();
        } else if (c == QLatin1Char('~')) {
            const QChar next = i + 1 < pointer.size() ? pointer.at(i + 1) : QChar();
            if (next == QLatin1Char('0'))
                token += QLatin1Char('~');
            else if (next == QLatin1Char('1'))
                token += QLatin1Char('/');
            else
                return std::nullopt;
            ++i;
        } else {
            token += c;
        }
    }
    tokens.append(token);
    return tokens;
}

// The pointer to the first count tokens, escaped again, for messages.
QString pointerText(const QStringList &tokens, qsizetype count)
{
    if (count == 0)
        return QStringLiteral("the document root");
    QString pointer;
    for (qsizetype i = 0; i < count; ++i) {
        QString token = tokens.at(i);
        token.replace(QLatin1Char('~'), QStringLiteral("~0"));
        token.replace(QLatin1Char('/'), QStringLiteral("~1"));
        pointer += QLatin1Char('/') + token;
    }
    return pointer;
}

QString pointerText(const QStringList &tokens)
{
    return pointerText(tokens, tokens.size());
}

// An RFC 6901 array index: "0" or digits without a leading zero. Nine digits at most, which
// is more than any array Qt can hold and cannot overflow.
std::optional<qsizetype> arrayIndex(const QString &token)
{
    if (token.isEmpty() || token.size() > 9 || (token.size() > 1 && token.front() == u'0'))
        return std::nullopt;
    qsizetype index = 0;
    for (const QChar c : token) {
        if (c.unicode() < u'0' || c.unicode() > u'9')
            return std::nullopt;
        index = index * 10 + (c.unicode() - u'0');
    }
    return index;
}

std::optional<QJsonValue> child(const QJsonValue &container, const QString &token)
{
    if (container.isObject()) {
        const QJsonObject object = container.toObject();
        const auto it = object.constFind(token);
        if (it == object.constEnd())
            return std::nullopt;
        return it.value();
    }
    if (container.isArray()) {
        const QJsonArray array = container.toArray();
        const std::optional<qsizetype> index = arrayIndex(token);
        if (!index || *index >= array.size())
            return std::nullopt;
        return array.at(*index);
    }
    return std::nullopt;
}

// The value tokens names; nullopt with *failure set if there is none.
std::optional<QJsonValue> valueAt(const QJsonValue &document, const QStringList &tokens,
                                  QString *failure)
{
    QJsonValue current = document;
    for (qsizetype i = 0; i < tokens.size(); ++i) {
        std::optional<QJsonValue> next = child(current, tokens.at(i));
        if (!next) {
            *failure = pointerText(tokens, i + 1) + QStringLiteral(" does not exist");
            return std::nullopt;
        }
        current = std::move(*next);
    }
    return current;
}

// Walks to the parent of the location tokens names (tokens is not empty), lets edit change
// that parent, then writes each changed container back into its own parent: Qt's JSON
// containers are values, so there is no reference into the document to change in place.
// Iterative, so a long pointer cannot exhaust the stack.
template <typename Edit>
std::optional<QString> editParent(QJsonValue &document, const QStringList &tokens, Edit edit)
{
    std::vector<QJsonValue> chain;
    chain.reserve(tokens.size());
    chain.push_back(document);
    for (qsizetype i = 0; i + 1 < tokens.size(); ++i) {
        std::optional<QJsonValue> next = child(chain.back(), tokens.at(i));
        if (!next)
            return pointerText(tokens, i + 1) + QStringLiteral(" does not exist");
        chain.push_back(std::move(*next));
    }
    const qsizetype parentLength = tokens.size() - 1;
    if (!chain.back().isObject() && !chain.back().isArray())
        return pointerText(tokens, parentLength) + QStringLiteral(" is not an object or array");
    if (std::optional<QString> failure = edit(chain.back(), tokens.last()))
        return failure;
    for (qsizetype i = parentLength; i > 0; --i) {
        QJsonValue &container = chain[static_cast<size_t>(i - 1)];
        const QString &token = tokens.at(i - 1);
        if (container.isObject()) {
            QJsonObject object = container.toObject();
            object.insert(token, chain[static_cast<size_t>(i)]);
            container = object;
        } else {
            QJsonArray array = container.toArray();
            array.replace(*arrayIndex(token), chain[static_cast<size_t>(i)]);
            container = array;
        }
    }
    document = chain.front();
    return std::nullopt;
}

std::optional<QString> addValue(QJsonValue &document, const QStringList &tokens,
                                const QJsonValue &value)
{
    if (tokens.isEmpty()) {
        document = value;
        return std::nullopt;
    }
    return editParent(
        document, tokens, [&](QJsonValue &parent, const QString &last) -> std::optional<QString> {
            if (parent.isObject()) {
                QJsonObject object = parent.toObject();
                object.insert(last, value);
                parent = object;
                return std::nullopt;
            }
            QJsonArray array = parent.toArray();
            if (last == QLatin1String("-")) {
                array.append(value);
            } else {
                const std::optional<qsizetype> index = arrayIndex(last);
                if (!index)
                    return quoted(last) + QStringLiteral(" is not an array index");
                if (*index > array.size())
                    return QStringLiteral("index %1 is out of range (%2 has %3 elements)")
                        .arg(QString::number(*index), pointerText(tokens, tokens.size() - 1),
                             QString::number(array.size()));
                array.insert(*index, value);
            }
            parent = array;
            return std::nullopt;
        });
}

std::optional<QString> removeValue(QJsonValue &document, const QStringList &tokens)
{
    if (tokens.isEmpty())
        return QStringLiteral("the document root cannot be removed");
    return editParent(
        document, tokens, [&](QJsonValue &parent, const QString &last) -> std::optional<QString> {
            const QString missing = pointerText(tokens) + QStringLiteral(" does not exist");
            if (parent.isObject()) {
                QJsonObject object = parent.toObject();
                if (!object.contains(last))
                    return missing;
                object.remove(last);
                parent = object;
                return std::nullopt;
            }
            QJsonArray array = parent.toArray();
            const std::optional<qsizetype> index = arrayIndex(last);
            if (!index || *index >= array.size())
                return missing;
            array.removeAt(*index);
            parent = array;
            return std::nullopt;
        });
}

std::optional<QString> replaceValue(QJsonValue &document, const QStringList &tokens,
                                    const QJsonValue &value)
{
    if (tokens.isEmpty()) {
        document = value;
        return std::nullopt;
    }
    return editParent(
        document, tokens, [&](QJsonValue &parent, const QString &last) -> std::optional<QString> {
            const QString missing = pointerText(tokens) + QStringLiteral(" does not exist");
            if (parent.isObject()) {
                QJsonObject object = parent.toObject();
                if (!object.contains(last))
                    return missing;
                object.insert(last, value);
                parent = object;
                return std::nullopt;
            }
            QJsonArray array = parent.toArray();
            const std::optional<qsizetype> index = arrayIndex(last);
            if (!index || *index >= array.size())
                return missing;
            array.replace(*index, value);
            parent = array;
            return std::nullopt;
        });
}

std::optional<QString> moveValue(QJsonValue &document, const Operation &op)
{
    QString failure;
    const std::optional<QJsonValue> value = valueAt(document, op.fromTokens, &failure);
    if (!value)
        return failure;
    if (op.fromTokens == op.pathTokens)
        return std::nullopt;
    if (op.fromTokens.size() < op.pathTokens.size() &&
        op.pathTokens.mid(0, op.fromTokens.size()) == op.fromTokens)
        return QStringLiteral("cannot move %1 into itself").arg(pointerText(op.fromTokens));
    if (std::optional<QString> removeFailure = removeValue(document, op.fromTokens))
        return removeFailure;
    return addValue(document, op.pathTokens, *value);
}

// Checks one operation object (index is its position in the patch) for the members its op
// needs; RFC 6902 section 4 says members an op does not define are ignored.
std::variant<Operation, PatchError> parseOperation(const QJsonValue &element, qsizetype index)
{
    const auto invalid = [index](const QString &detail) {
        return patchError(400, QStringLiteral("invalid JSON patch: operation %1: %2")
                                   .arg(QString::number(index), detail));
    };
    if (!element.isObject())
        return invalid(QStringLiteral("not a JSON object"));
    const QJsonObject object = element.toObject();

    const QJsonValue opValue = object.value(QLatin1String("op"));
    if (opValue.isUndefined())
        return invalid(QStringLiteral("missing \"op\""));
    if (!opValue.isString())
        return invalid(QStringLiteral("\"op\" is not a string"));
    Operation op;
    op.name = opValue.toString();
    static const std::pair<QLatin1String, Op> kOps[] = {
        {QLatin1String("add"), Op::Add},         {QLatin1String("remove"), Op::Remove},
        {QLatin1String("replace"), Op::Replace}, {QLatin1String("move"), Op::Move},
        {QLatin1String("copy"), Op::Copy},       {QLatin1String("test"), Op::Test},
    };
    bool known = false;
    for (const auto &[name, kind] : kOps) {
        if (op.name == name) {
            op.op = kind;
            known = true;
        }
    }
    if (!known)
        return invalid(QStringLiteral("unknown op %1").arg(quoted(op.name)));

    const auto pointerMember = [&](const QString &member, QString *text,
                                   QStringList *tokens) -> std::optional<PatchError> {
        const QJsonValue value = object.value(member);
        if (value.isUndefined())
            return invalid(QStringLiteral("missing \"%1\"").arg(member));
        if (!value.isString())
            return invalid(QStringLiteral("\"%1\" is not a string").arg(member));
        *text = value.toString();
        std::optional<QStringList> parsed = parsePointer(*text);
        if (!parsed)
            return invalid(
                QStringLiteral("\"%1\" is not a JSON pointer: %2").arg(member, quoted(*text)));
        *tokens = std::move(*parsed);
        return std::nullopt;
    };
    if (std::optional<PatchError> e =
            pointerMember(QStringLiteral("path"), &op.path, &op.pathTokens))
        return *e;
    if (op.op == Op::Move || op.op == Op::Copy) {
        if (std::optional<PatchError> e =
                pointerMember(QStringLiteral("from"), &op.from, &op.fromTokens))
            return *e;
    }
    if (op.op == Op::Add || op.op == Op::Replace || op.op == Op::Test) {
        op.value = object.value(QLatin1String("value"));
        if (op.value.isUndefined())
            return invalid(QStringLiteral("missing \"value\""));
    }
    return op;
}

// RFC 6902 appendix A.13: an operation with a member twice is invalid, but QJsonDocument
// silently keeps the last one, so the names are read from the text (already known to be
// valid JSON whose top level is an array).
std::optional<PatchError> duplicateOperationMember(const QByteArray &body)
{
    struct Level
    {
        bool object = false;
        bool expectKey = false;
    };
    std::vector<Level> levels;
    QSet<QString> names;
    qsizetype operation = 0;
    for (qsizetype i = 0; i < body.size(); ++i) {
        const char c = body.at(i);
        if (c == '"') {
            const qsizetype start = i;
            // Bounded even though QJsonDocument has already seen every string closed.
            for (++i; i < body.size() && body.at(i) != '"'; ++i) {
                if (body.at(i) == '\\')
                    ++i;
            }
            if (i >= body.size())
                break;
            if (levels.size() != 2 || !levels.back().expectKey)
                continue;
            levels.back().expectKey = false;
            const QByteArray literal = '[' + body.mid(start, i - start + 1) + ']';
            const QString name = QJsonDocument::fromJson(literal).array().at(0).toString();
            if (names.contains(name))
                return patchError(400, QStringLiteral("invalid JSON patch: operation %1: "
                                                      "duplicate member %2")
                                           .arg(QString::number(operation), quoted(name)));
            names.insert(name);
        } else if (c == '{' || c == '[') {
            levels.push_back({c == '{', c == '{'});
            if (levels.size() == 2)
                names.clear();
        } else if ((c == '}' || c == ']') && !levels.empty()) {
            levels.pop_back();
        } else if (c == ',' && !levels.empty()) {
            if (levels.size() == 1)
                ++operation;
            levels.back().expectKey = levels.back().object;
        }
    }
    return std::nullopt;
}

// ---- Kubernetes strategic merge patch ------------------------------------------------------

enum class ListStrategy { Replace, MergeOnKey, Union };

// How the list at a field path (field names from the root, array indices skipped) merges,
// and for MergeOnKey the key; see patch.h.
std::pair<ListStrategy, QString> listStrategy(const QString &path)
{
    static const std::pair<QLatin1String, QLatin1String> kMergeKeys[] = {
        {QLatin1String("metadata.ownerReferences"), QLatin1String("uid")},
        {QLatin1String("spec.taints"), QLatin1String("key")},
        {QLatin1String("status.conditions"), QLatin1String("type")},
        {QLatin1String("status.addresses"), QLatin1String("type")},
        {QLatin1String("spec.containers"), QLatin1String("name")},
        {QLatin1String("spec.initContainers"), QLatin1String("name")},
        {QLatin1String("spec.containers.ports"), QLatin1String("containerPort")},
        {QLatin1String("spec.containers.env"), QLatin1String("name")},
        {QLatin1String("spec.volumes"), QLatin1String("name")},
        {QLatin1String("spec.ports"), QLatin1String("port")},
        {QLatin1String("subjects"), QLatin1String("name")},
        {QLatin1String("webhooks"), QLatin1String("name")}, // admission webhook configurations
    };
    for (const auto &[listPath, key] : kMergeKeys) {
        if (path == listPath)
            return {ListStrategy::MergeOnKey, key};
    }
    if (path == QLatin1String("metadata.finalizers"))
        return {ListStrategy::Union, QString()};
    return {ListStrategy::Replace, QString()};
}

PatchError strategicError(const QString &path, const QString &detail)
{
    if (path.isEmpty())
        return patchError(422, QStringLiteral("strategic merge patch: ") + detail);
    return patchError(422, QStringLiteral("strategic merge patch: %1: %2").arg(path, detail));
}

PatchError tooDeep(const QString &format)
{
    return patchError(422, QStringLiteral("%1 nests deeper than %2 levels")
                               .arg(format, QString::number(kMaxPatchDepth)));
}

// The merged value; QJsonValue::Undefined when "$patch": "delete" removes it.
using MergeResult = std::variant<QJsonValue, PatchError>;

MergeResult mergeList(const QJsonValue &target, const QJsonArray &patch, const QString &path,
                      int depth);

MergeResult mergeObject(const QJsonValue &target, const QJsonObject &patch, const QString &path,
                        int depth)
{
    if (depth > kMaxPatchDepth)
        return tooDeep(QStringLiteral("strategic merge patch"));
    QJsonObject result = target.isObject() ? target.toObject() : QJsonObject();

    if (patch.contains(kDirective)) {
        const QJsonValue directive = patch.value(kDirective);
        const QString name = directive.isString() ? directive.toString() : QString();
        if (name == QLatin1String("replace"))
            result = QJsonObject();
        else if (name == QLatin1String("delete"))
            return QJsonValue(QJsonValue::Undefined);
        else if (name != QLatin1String("merge"))
            return strategicError(
                path, QStringLiteral("unknown \"$patch\" directive %1").arg(quoted(directive)));
    }

    // Directives first: they are validated before anything merges, and deletions from
    // primitive lists happen before the same patch adds to them.
    for (auto it = patch.constBegin(); it != patch.constEnd(); ++it) {
        const QString key = it.key();
        if (!key.startsWith(QLatin1Char('$')) || key == kDirective ||
            key.startsWith(kSetElementOrderPrefix))
            continue;
        if (key == kRetainKeys) {
            const QJsonValue retain = it.value();
            QSet<QString> kept;
            const QJsonArray names = retain.toArray();
            bool strings = retain.isArray();
            for (qsizetype i = 0; i < names.size(); ++i) {
                strings = strings && names.at(i).isString();
                kept.insert(names.at(i).toString());
            }
            if (!strings)
                return strategicError(path,
                                      QStringLiteral("\"$retainKeys\" is not a list of strings"));
            for (auto field = patch.constBegin(); field != patch.constEnd(); ++field) {
                if (!field.key().startsWith(QLatin1Char('$')) && !field.value().isNull() &&
                    !kept.contains(field.key()))
                    return strategicError(path, QStringLiteral("\"$retainKeys\" does not list %1")
                                                    .arg(quoted(field.key())));
            }
            const QStringList present = result.keys();
            for (const QString &name : present) {
                if (!kept.contains(name))
                    result.remove(name);
            }
        } else if (key.startsWith(kDeleteFromPrimitiveListPrefix) &&
                   key.size() > kDeleteFromPrimitiveListPrefix.size()) {
            if (!it.value().isArray())
                return strategicError(path, QStringLiteral("%1 is not a list").arg(quoted(key)));
            const QString field = key.mid(kDeleteFromPrimitiveListPrefix.size());
            const QJsonValue current = result.value(field);
            if (!current.isArray())
                continue;
            QSet<QByteArray> doomed;
            for (const QJsonValue d : it.value().toArray())
                doomed.insert(jsonValueKey(d));
            QJsonArray kept;
            for (const QJsonValue element : current.toArray())
                if (!doomed.contains(jsonValueKey(element)))
                    kept.append(element);
            result.insert(field, kept);
        } else {
            return strategicError(path, QStringLiteral("unknown directive %1").arg(quoted(key)));
        }
    }

    for (auto it = patch.constBegin(); it != patch.constEnd(); ++it) {
        const QString key = it.key();
        if (key.startsWith(QLatin1Char('$')))
            continue;
        const QJsonValue value = it.value();
        const QString childPath = path.isEmpty() ? key : path + QLatin1Char('.') + key;
        MergeResult merged;
        if (value.isNull()) {
            result.remove(key);
            continue;
        }
        if (value.isObject())
            merged = mergeObject(result.value(key), value.toObject(), childPath, depth + 1);
        else if (value.isArray())
            merged = mergeList(result.value(key), value.toArray(), childPath, depth + 1);
        else
            merged = value;
        if (const PatchError *e = std::get_if<PatchError>(&merged))
            return *e;
        const QJsonValue &mergedValue = std::get<QJsonValue>(merged);
        if (mergedValue.isUndefined())
            result.remove(key);
        else
            result.insert(key, mergedValue);
    }
    return result;
}

MergeResult mergeList(const QJsonValue &target, const QJsonArray &patch, const QString &path,
                      int depth)
{
    if (depth > kMaxPatchDepth)
        return tooDeep(QStringLiteral("strategic merge patch"));
    const auto [strategy, mergeKey] = listStrategy(path);
    if (strategy == ListStrategy::Replace)
        return patch;
    QJsonArray result = target.isArray() ? target.toArray() : QJsonArray();

    if (strategy == ListStrategy::Union) {
        QSet<QByteArray> present;
        for (const QJsonValue existing : std::as_const(result))
            present.insert(jsonValueKey(existing));
        for (qsizetype i = 0; i < patch.size(); ++i) {
            const QJsonValue element = patch.at(i);
            if (element.isObject() || element.isArray())
                return strategicError(path,
                                      QStringLiteral("element %1 is not a primitive value").arg(i));
            if (!present.contains(jsonValueKey(element))) {
                present.insert(jsonValueKey(element));
                result.append(element);
            }
        }
        return result;
    }

    // Merge on key. Special elements ("$patch") act on the original list before the others
    // merge, as in Kubernetes; an element may therefore be deleted and re-added in one patch.
    std::vector<std::pair<qsizetype, QJsonObject>> elements;
    QSet<QByteArray> deleted; // the merge keys of "$patch": "delete" elements
    bool replace = false;
    for (qsizetype i = 0; i < patch.size(); ++i) {
        if (!patch.at(i).isObject())
            return strategicError(path, QStringLiteral("element %1 is not an object").arg(i));
        const QJsonObject element = patch.at(i).toObject();
        const QJsonValue directive = element.value(kDirective);
        const QString name = directive.isString() ? directive.toString() : QString();
        if (directive.isUndefined() || (name == QLatin1String("merge") && element.size() > 1)) {
            elements.emplace_back(i, element);
        } else if (name == QLatin1String("delete")) {
            const QJsonValue keyValue = element.value(mergeKey);
            if (keyValue.isUndefined())
                return strategicError(path, QStringLiteral("element %1 deletes without its "
                                                           "merge key %2")
                                                .arg(QString::number(i), quoted(mergeKey)));
            deleted.insert(jsonValueKey(keyValue));
        } else if (name == QLatin1String("replace")) {
            replace = true;
        } else if (name != QLatin1String("merge")) {
            return strategicError(path, QStringLiteral("element %1: unknown \"$patch\" "
                                                       "directive %2")
                                            .arg(QString::number(i), quoted(directive)));
        }
    }
    if (replace) {
        result = QJsonArray();
    } else if (!deleted.isEmpty()) {
        QJsonArray kept;
        for (const QJsonValue existing : std::as_const(result)) {
            const QJsonValue k = existing.toObject().value(mergeKey);
            if (!existing.isObject() || k.isUndefined() || !deleted.contains(jsonValueKey(k)))
                kept.append(existing);
        }
        result = kept;
    }

    // Where each key is in the list (its first element with that key, as a scan would find).
    QHash<QByteArray, qsizetype> at;
    for (qsizetype j = 0; j < result.size(); ++j) {
        const QJsonValue k = result.at(j).toObject().value(mergeKey);
        if (result.at(j).isObject() && !k.isUndefined() && !at.contains(jsonValueKey(k)))
            at.insert(jsonValueKey(k), j);
    }
    for (const auto &[index, element] : elements) {
        const QJsonValue keyValue = element.value(mergeKey);
        if (keyValue.isUndefined())
            return strategicError(path, QStringLiteral("element %1 has no merge key %2")
                                            .arg(QString::number(index), quoted(mergeKey)));
        const QByteArray key = jsonValueKey(keyValue);
        const qsizetype match = at.value(key, -1);
        MergeResult merged =
            mergeObject(match < 0 ? QJsonValue() : result.at(match), element, path, depth + 1);
        if (const PatchError *e = std::get_if<PatchError>(&merged))
            return *e;
        const QJsonValue &mergedValue = std::get<QJsonValue>(merged);
        if (mergedValue.isUndefined())
            continue;
        if (match < 0) {
            at.insert(key, result.size());
            result.append(mergedValue);
        } else {
            result.replace(match, mergedValue);
        }
    }
    return result;
}

QString formatName(PatchType type)
{
    switch (type) {
    case PatchType::Merge:
        return QStringLiteral("merge patch");
    case PatchType::StrategicMerge:
        return QStringLiteral("strategic merge patch");
    case PatchType::Json:
        break;
    }
    return QStringLiteral("JSON patch");
}

QString typeName(const QJsonValue &v)
{
    return Core::jsonTypeName(v);
}

} // namespace

QByteArray jsonValueKey(const QJsonValue &value)
{
    // In an array, so that a bare string or number serializes too; Qt writes a whole double and
    // the integer of the same value alike, as == compares them.
    return QJsonDocument(QJsonArray{value}).toJson(QJsonDocument::Compact);
}

std::optional<PatchType> patchTypeFromContentType(const QByteArray &contentType)
{
    const qsizetype semicolon = contentType.indexOf(';');
    const QByteArray mediaType =
        (semicolon < 0 ? contentType : contentType.left(semicolon)).trimmed().toLower();
    if (mediaType == "application/merge-patch+json")
        return PatchType::Merge;
    if (mediaType == "application/strategic-merge-patch+json")
        return PatchType::StrategicMerge;
    if (mediaType == "application/json-patch+json")
        return PatchType::Json;
    return std::nullopt;
}

QJsonValue applyMergePatch(const QJsonValue &target, const QJsonValue &patch)
{
    return mergePatch(target, patch, 1).value_or(target);
}

std::variant<QJsonValue, PatchError> applyJsonPatch(const QJsonValue &target,
                                                    const QJsonValue &operations)
{
    if (!operations.isArray())
        return patchError(400, QStringLiteral("invalid JSON patch: not an array of operations"));
    // All operations are checked before any applies, so a malformed patch is always a 400.
    const QJsonArray array = operations.toArray();
    // kube-apiserver's limits: 10,000 operations, and copies that together stay small (each copy
    // would otherwise double what the next one copies).
    constexpr qsizetype kMaxOperations = 10000;
    constexpr qsizetype kMaxCopiedBytes = 10 * 1024 * 1024;
    if (array.size() > kMaxOperations)
        return patchError(413, QStringLiteral("The allowed maximum operations in a JSON patch is "
                                              "%1, got %2")
                                   .arg(kMaxOperations)
                                   .arg(array.size()));
    qsizetype copied = 0;
    std::vector<Operation> ops;
    ops.reserve(static_cast<size_t>(array.size()));
    for (qsizetype i = 0; i < array.size(); ++i) {
        std::variant<Operation, PatchError> parsed = parseOperation(array.at(i), i);
        if (const PatchError *e = std::get_if<PatchError>(&parsed))
            return *e;
        ops.push_back(std::move(std::get<Operation>(parsed)));
    }

    QJsonValue document = target;
    for (size_t i = 0; i < ops.size(); ++i) {
        const Operation &op = ops[i];
        std::optional<QString> failure;
        switch (op.op) {
        case Op::Add:
            failure = addValue(document, op.pathTokens, op.value);
            break;
        case Op::Remove:
            failure = removeValue(document, op.pathTokens);
            break;
        case Op::Replace:
            failure = replaceValue(document, op.pathTokens, op.value);
            break;
        case Op::Move:
            failure = moveValue(document, op);
            break;
        case Op::Copy: {
            QString missing;
            if (const std::optional<QJsonValue> value =
                    valueAt(document, op.fromTokens, &missing)) {
                // Every copy counts by its size, strings too (a 250 kB string copied 60
                // times counted 16 bytes a copy).
                copied +=
                    value->isObject()
                        ? QJsonDocument(value->toObject()).toJson(QJsonDocument::Compact).size()
                    : value->isArray()
                        ? QJsonDocument(value->toArray()).toJson(QJsonDocument::Compact).size()
                    : value->isString() ? value->toString().size() + 16
                                        : 16;
                if (copied > kMaxCopiedBytes)
                    failure = QStringLiteral("the values copied add up to more than %1 bytes")
                                  .arg(kMaxCopiedBytes);
                else
                    failure = addValue(document, op.pathTokens, *value);
            } else {
                failure = missing;
            }
            break;
        }
        case Op::Test: {
            QString missing;
            const std::optional<QJsonValue> actual = valueAt(document, op.pathTokens, &missing);
            if (!actual)
                return patchError(422, QStringLiteral("JSON patch test failed: %1, expected %2")
                                           .arg(missing, quoted(op.value)));
            if (*actual != op.value)
                return patchError(
                    422, QStringLiteral("JSON patch test failed: %1 is %2, "
                                        "expected %3")
                             .arg(pointerText(op.pathTokens), quoted(*actual), quoted(op.value)));
            break;
        }
        }
        if (failure)
            return patchError(422, QStringLiteral("JSON patch operation %1 (%2 %3): %4")
                                       .arg(QString::number(i), op.name,
                                            op.path.isEmpty() ? QStringLiteral("\"\"") : op.path,
                                            *failure));
    }
    return document;
}

std::variant<QJsonValue, PatchError> applyStrategicMergePatch(const QJsonValue &target,
                                                              const QJsonValue &patch)
{
    if (!patch.isObject())
        return patchError(400, QStringLiteral("invalid strategic merge patch: not an object"));
    MergeResult merged = mergeObject(target, patch.toObject(), QString(), 1);
    if (const PatchError *e = std::get_if<PatchError>(&merged))
        return *e;
    // "$patch": "delete" at the root deletes the whole value, as a null merge patch does.
    if (std::get<QJsonValue>(merged).isUndefined())
        return QJsonValue(QJsonValue::Null);
    return merged;
}

std::variant<QJsonObject, PatchError> applyPatch(PatchType type, const QJsonObject &original,
                                                 const QByteArray &body)
{
    const QString format = formatName(type);
    QJsonParseError parseError{};
    const QJsonDocument document = QJsonDocument::fromJson(body, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return patchError(
            400, QStringLiteral("invalid %1: not valid JSON (%2 at offset %3)")
                     .arg(format, parseError.errorString(), QString::number(parseError.offset)));

    std::variant<QJsonValue, PatchError> patched;
    switch (type) {
    case PatchType::Merge: {
        // RFC 7386 would accept any value, but a patch that is not an object can only
        // replace the whole resource, which no client means to do.
        if (!document.isObject())
            return patchError(400, QStringLiteral("invalid merge patch: not an object"));
        const std::optional<QJsonValue> merged = mergePatch(original, document.object(), 1);
        if (!merged)
            return tooDeep(format);
        patched = *merged;
        break;
    }
    case PatchType::StrategicMerge:
        if (!document.isObject())
            return patchError(400, QStringLiteral("invalid strategic merge patch: not an object"));
        patched = applyStrategicMergePatch(original, document.object());
        break;
    case PatchType::Json:
        if (!document.isArray())
            return patchError(400,
                              QStringLiteral("invalid JSON patch: not an array of operations"));
        if (std::optional<PatchError> duplicate = duplicateOperationMember(body))
            return *duplicate;
        patched = applyJsonPatch(original, document.array());
        break;
    }
    if (const PatchError *e = std::get_if<PatchError>(&patched))
        return *e;
    const QJsonValue &result = std::get<QJsonValue>(patched);
    if (!result.isObject())
        return patchError(
            422, QStringLiteral("the %1 turns the object into %2").arg(format, typeName(result)));
    return result.toObject();
}

} // namespace Gatehouse::Cluster
