#include "cluster/serversideapply.h"

#include "cluster/patch.h"
#include "cluster/schemas.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QSet>

#include <google/protobuf/descriptor.h>

#include <algorithm>

namespace Gatehouse::Cluster::ServerSideApply {

namespace {

namespace pb = google::protobuf;
using namespace KubeSchemas;

constexpr QChar kSep = QLatin1Char('\n');
const QString kBeforeFirstApply = QStringLiteral("before-first-apply");

// Leaf path -> value (a list item's "." path: true).
using Leaves = QMap<QString, QJsonValue>;

QString join(const QString &prefix, const QString &key)
{
    return prefix.isEmpty() ? key : prefix + kSep + key;
}

// The struct a value of f is (null for scalars and Kubernetes' special types, which are
// leaves); for a map field, of its values.
const pb::Descriptor *structOf(const pb::FieldDescriptor *f)
{
    if (!f)
        return nullptr;
    if (f->is_map())
        f = f->message_type()->map_value();
    if (f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE)
        return nullptr;
    return specialOf(f->message_type()) == Special::None ? f->message_type() : nullptr;
}

struct ListKind
{
    enum Type { Atomic, Set, Map } type = Atomic;
    QStringList keys;
};

// kube-openapi's schemaconv: +listType first, else patchStrategy merge (with its key).
ListKind listKind(const pb::FieldDescriptor *f)
{
    if (!f || !f->is_repeated() || f->is_map())
        return {};
    const QMultiHash<QString, QString> t = goTags(f);
    const QString type = t.value(QStringLiteral("listType"));
    QStringList keys = t.values(QStringLiteral("listMapKey"));
    std::reverse(keys.begin(), keys.end());
    if (type == QLatin1String("map") && !keys.isEmpty())
        return {ListKind::Map, keys};
    if (type == QLatin1String("set"))
        return {ListKind::Set, {}};
    if (type == QLatin1String("atomic"))
        return {};
    if (t.value(QStringLiteral("patchStrategy")).contains(QLatin1String("merge"))) {
        if (t.contains(QStringLiteral("patchMergeKey")))
            return {ListKind::Map, {t.value(QStringLiteral("patchMergeKey"))}};
        if (f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE)
            return {ListKind::Set, {}};
    }
    return {};
}

QString compact(const QJsonValue &v)
{
    if (v.isObject())
        return QString::fromUtf8(QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact));
    const QByteArray a = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(a.mid(1, a.size() - 2));
}

QJsonValue parseCompact(const QString &text)
{
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray("[") + text.toUtf8() + ']');
    return doc.array().isEmpty() ? QJsonValue() : doc.array().first();
}

QJsonObject keysOf(const QJsonObject &item, const QStringList &keys)
{
    QJsonObject k;
    for (const QString &key : keys)
        if (item.contains(key))
            k.insert(key, item.value(key));
    return k;
}

void collect(const QJsonObject &o, const pb::Descriptor *d, const QString &prefix, Leaves *out)
{
    for (auto it = o.begin(); it != o.end(); ++it) {
        const QJsonValue v = it.value();
        if (v.isNull())
            continue;
        const QString path = join(prefix, QStringLiteral("f:") + it.key());
        const pb::FieldDescriptor *f = jsonField(d, it.key());
        if (f && f->is_map() && v.isObject() && !v.toObject().isEmpty()) {
            const QJsonObject m = v.toObject();
            const pb::Descriptor *vd = structOf(f);
            for (auto e = m.begin(); e != m.end(); ++e) {
                const QString p = join(path, QStringLiteral("f:") + e.key());
                if (vd && e.value().isObject() && !e.value().toObject().isEmpty())
                    collect(e.value().toObject(), vd, p, out);
                else
                    out->insert(p, e.value());
            }
        } else if (f && f->is_repeated() && v.isArray() && !v.toArray().isEmpty() &&
                   listKind(f).type != ListKind::Atomic) {
            const ListKind kind = listKind(f);
            for (const QJsonValue x : v.toArray()) {
                if (kind.type == ListKind::Set) {
                    out->insert(join(path, QStringLiteral("v:") + compact(x)), x);
                    continue;
                }
                const QJsonObject item = x.toObject();
                const QString ip =
                    join(path, QStringLiteral("k:") + compact(keysOf(item, kind.keys)));
                out->insert(join(ip, QStringLiteral(".")), true);
                collect(item, structOf(f), ip, out);
            }
        } else if (structOf(f) && !f->is_repeated() && v.isObject() && !v.toObject().isEmpty()) {
            collect(v.toObject(), structOf(f), path, out);
        } else {
            out->insert(path, v);
        }
    }
}

bool under(const QString &path, const QString &prefix)
{
    return path == prefix || path.startsWith(prefix + kSep);
}

Leaves leavesOf(const QJsonObject &object, const pb::Descriptor *d, bool withStatus)
{
    Leaves leaves;
    collect(object, d, QString(), &leaves);
    static const QStringList serverOwned{
        QStringLiteral("f:apiVersion"),
        QStringLiteral("f:kind"),
        QStringLiteral("f:metadata\nf:name"),
        QStringLiteral("f:metadata\nf:namespace"),
        QStringLiteral("f:metadata\nf:uid"),
        QStringLiteral("f:metadata\nf:resourceVersion"),
        QStringLiteral("f:metadata\nf:generation"),
        QStringLiteral("f:metadata\nf:creationTimestamp"),
        QStringLiteral("f:metadata\nf:deletionTimestamp"),
        QStringLiteral("f:metadata\nf:deletionGracePeriodSeconds"),
        QStringLiteral("f:metadata\nf:selfLink"),
        QStringLiteral("f:metadata\nf:managedFields"),
        QStringLiteral(
            "f:metadata\nf:annotations\nf:kubectl.kubernetes.io/last-applied-configuration"),
    };
    leaves.removeIf([&](const auto &it) {
        for (const QString &p : serverOwned)
            if (under(it.key(), p))
                return true;
        return !withStatus && under(it.key(), QStringLiteral("f:status"));
    });
    return leaves;
}

// Paths whose value differs between two objects (changed, added or removed).
FieldSet changedBetween(const Leaves &before, const Leaves &after)
{
    FieldSet changed;
    for (auto it = before.begin(); it != before.end(); ++it)
        if (!after.contains(it.key()) || after.value(it.key()) != it.value())
            changed.insert(it.key());
    for (auto it = after.begin(); it != after.end(); ++it)
        if (!before.contains(it.key()))
            changed.insert(it.key());
    return changed;
}

QJsonObject merge(QJsonObject current, const QJsonObject &applied, const pb::Descriptor *d)
{
    for (auto it = applied.begin(); it != applied.end(); ++it) {
        const QJsonValue av = it.value();
        if (av.isNull()) {
            current.remove(it.key());
            continue;
        }
        const QJsonValue cv = current.value(it.key());
        const pb::FieldDescriptor *f = jsonField(d, it.key());
        if (f && f->is_map() && av.isObject() && cv.isObject()) {
            QJsonObject m = cv.toObject();
            const QJsonObject am = av.toObject();
            const pb::Descriptor *vd = structOf(f);
            for (auto e = am.begin(); e != am.end(); ++e) {
                if (e.value().isNull())
                    m.remove(e.key());
                else if (vd && e.value().isObject() && m.value(e.key()).isObject())
                    m.insert(e.key(), merge(m.value(e.key()).toObject(), e.value().toObject(), vd));
                else
                    m.insert(e.key(), e.value());
            }
            current.insert(it.key(), m);
        } else if (f && f->is_repeated() && av.isArray() && cv.isArray() &&
                   listKind(f).type != ListKind::Atomic) {
            const ListKind kind = listKind(f);
            QJsonArray list = cv.toArray();
            // Indexed (a set's values, a map's keys): linear in the list and the patch.
            const auto keyOf = [&kind](const QJsonValue &v) {
                return jsonValueKey(
                    kind.type == ListKind::Set ? v : QJsonValue(keysOf(v.toObject(), kind.keys)));
            };
            QHash<QByteArray, qsizetype> at;
            for (qsizetype i = 0; i < list.size(); ++i)
                if (!at.contains(keyOf(list.at(i))))
                    at.insert(keyOf(list.at(i)), i);
            for (const QJsonValue x : av.toArray()) {
                const QByteArray key = keyOf(x);
                const qsizetype found = at.value(key, -1);
                if (found < 0) {
                    at.insert(key, list.size());
                    list.append(x);
                } else if (kind.type != ListKind::Set) {
                    list[found] = merge(list.at(found).toObject(), x.toObject(), structOf(f));
                }
            }
            current.insert(it.key(), list);
        } else if (f && !f->is_repeated() && structOf(f) && av.isObject() && cv.isObject()) {
            current.insert(it.key(), merge(cv.toObject(), av.toObject(), structOf(f)));
        } else {
            current.insert(it.key(), av);
        }
    }
    return current;
}

// A list element's or map entry's selector ("v:VALUE", "k:{KEYS}") in one spelling, whatever
// spelling the stored managedFields used.
QString canonicalSelector(const QString &selector)
{
    return selector.left(2) + compact(parseCompact(selector.mid(2)));
}

// Removes field paths from o, all of them in one walk (maps and lists left empty go too): each
// container is copied once, however many of its elements go. Paths are matched from segment i.
void removeAll(QJsonObject &o, const QList<QStringList> &paths, qsizetype i,
               const pb::Descriptor *d)
{
    QHash<QString, QList<QStringList>> byField;
    for (const QStringList &p : paths)
        if (i < p.size() && p.at(i).startsWith(QLatin1String("f:")))
            byField[p.at(i).mid(2)].append(p);
    for (auto it = byField.cbegin(); it != byField.cend(); ++it) {
        const QString &name = it.key();
        const QList<QStringList> &batch = it.value();
        if (!o.contains(name))
            continue;
        if (std::any_of(batch.cbegin(), batch.cend(),
                        [i](const QStringList &p) { return i + 1 == p.size(); })) {
            o.remove(name);
            continue;
        }
        const pb::FieldDescriptor *f = jsonField(d, name);
        const QJsonValue child = o.value(name);
        if (child.isArray()) {
            // The first element each selector names goes whole, or loses what lies below it.
            QSet<QString> whole;
            QHash<QString, QList<QStringList>> below;
            for (const QStringList &p : batch) {
                const QString selector = canonicalSelector(p.at(i + 1));
                if (i + 2 >= p.size() || p.at(i + 2) == QLatin1String(".") ||
                    selector.startsWith(QLatin1String("v:")))
                    whole.insert(selector);
                else
                    below[selector].append(p);
            }
            const ListKind kind = listKind(f);
            QSet<QString> seen;
            QJsonArray kept;
            for (const QJsonValue x : child.toArray()) {
                QString selector = QStringLiteral("v:") + compact(x);
                if (!whole.contains(selector) && !below.contains(selector) && x.isObject())
                    selector = QStringLiteral("k:") + compact(keysOf(x.toObject(), kind.keys));
                const bool first = !seen.contains(selector);
                if (first && whole.contains(selector)) {
                    seen.insert(selector);
                    continue;
                }
                if (first && below.contains(selector)) {
                    seen.insert(selector);
                    QJsonObject item = x.toObject();
                    removeAll(item, below.value(selector), i + 2, structOf(f));
                    kept.append(item);
                    continue;
                }
                kept.append(x);
            }
            if (kept.isEmpty())
                o.remove(name);
            else
                o.insert(name, kept);
            continue;
        }
        if (!child.isObject())
            continue;
        QJsonObject c = child.toObject();
        if (f && f->is_map()) {
            QHash<QString, QList<QStringList>> byKey;
            for (const QStringList &p : batch)
                byKey[p.at(i + 1).mid(2)].append(p);
            // Rebuilt in key order (each insert appends), rather than removing entries one by
            // one from the middle.
            QJsonObject rest;
            for (auto e = c.constBegin(); e != c.constEnd(); ++e) {
                const auto k = byKey.constFind(e.key());
                if (k == byKey.cend()) {
                    rest.insert(e.key(), e.value());
                } else if (std::none_of(k->cbegin(), k->cend(),
                                        [i](const QStringList &p) { return i + 2 == p.size(); })) {
                    if (e.value().isObject()) {
                        QJsonObject value = e.value().toObject();
                        removeAll(value, *k, i + 2, structOf(f));
                        rest.insert(e.key(), value);
                    } else {
                        rest.insert(e.key(), e.value());
                    }
                }
            }
            c = rest;
            if (c.isEmpty())
                o.remove(name);
            else
                o.insert(name, c);
            continue;
        }
        removeAll(c, batch, i + 1, structOf(f));
        o.insert(name, c);
    }
}

struct Manager
{
    QJsonObject entry; // manager, operation, apiVersion, time, fieldsType, subresource...
    FieldSet fields;
    QString name() const { return entry.value(QLatin1String("manager")).toString(); }
    QString operation() const { return entry.value(QLatin1String("operation")).toString(); }
    // kube's printManager: "name" (Apply), "name" using apiVersion (Update).
    QString printed() const
    {
        QString s = QStringLiteral("\"%1\"").arg(name());
        if (operation() == QLatin1String("Update"))
            s += QStringLiteral(" using ") + entry.value(QLatin1String("apiVersion")).toString();
        return s;
    }
};

QList<Manager> managersOf(const QJsonObject &object)
{
    QList<Manager> out;
    const QJsonArray entries = object.value(QLatin1String("metadata"))
                                   .toObject()
                                   .value(QLatin1String("managedFields"))
                                   .toArray();
    for (const QJsonValue e : entries) {
        Manager m;
        m.entry = e.toObject();
        m.fields = fromFieldsV1(m.entry.value(QLatin1String("fieldsV1")).toObject());
        m.entry.remove(QStringLiteral("fieldsV1"));
        out.append(m);
    }
    return out;
}

QJsonObject withManagers(QJsonObject object, const QList<Manager> &managers)
{
    QJsonArray entries;
    for (const Manager &m : managers) {
        if (m.fields.isEmpty())
            continue;
        QJsonObject e = m.entry;
        e.insert(QStringLiteral("fieldsType"), QStringLiteral("FieldsV1"));
        e.insert(QStringLiteral("fieldsV1"), toFieldsV1(m.fields));
        entries.append(e);
    }
    QJsonObject meta = object.value(QLatin1String("metadata")).toObject();
    if (entries.isEmpty())
        meta.remove(QStringLiteral("managedFields"));
    else
        meta.insert(QStringLiteral("managedFields"), entries);
    object.insert(QStringLiteral("metadata"), meta);
    return object;
}

Manager &managerFor(QList<Manager> &managers, const QString &name, const QString &operation,
                    const QString &apiVersion)
{
    for (Manager &m : managers)
        if (m.name() == name && m.operation() == operation &&
            (operation == QLatin1String("Apply") ||
             m.entry.value(QLatin1String("apiVersion")).toString() == apiVersion))
            return m;
    Manager m;
    m.entry = QJsonObject{{QStringLiteral("manager"), name},
                          {QStringLiteral("operation"), operation},
                          {QStringLiteral("apiVersion"), apiVersion}};
    managers.append(m);
    return managers.last();
}

QString rfc3339(const QDateTime &t)
{
    return t.toUTC().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ssZ"));
}

} // namespace

FieldSet fieldsOf(const QJsonObject &object, const pb::Descriptor *d, bool withStatus)
{
    const Leaves leaves = leavesOf(object, d, withStatus);
    return FieldSet(leaves.keyBegin(), leaves.keyEnd());
}

QJsonObject toFieldsV1(const FieldSet &set)
{
    // Built depth-first from the sorted paths (a QJsonObject is a value: rebuilt per level).
    QMap<QString, FieldSet> children;
    QSet<QString> leaves;
    for (const QString &path : set) {
        const qsizetype cut = path.indexOf(kSep);
        if (cut < 0)
            leaves.insert(path);
        else
            children[path.left(cut)].insert(path.mid(cut + 1));
    }
    // Inserted in key order: a QJsonObject keeps its keys sorted, so each insert appends
    // (in any other order each moves the ones after it: quadratic in a list's elements).
    QMap<QString, QJsonValue> sorted;
    for (const QString &leaf : leaves)
        sorted.insert(leaf, QJsonObject());
    for (auto it = children.begin(); it != children.end(); ++it)
        sorted.insert(it.key(), toFieldsV1(it.value()));
    QJsonObject out;
    for (auto it = sorted.cbegin(); it != sorted.cend(); ++it)
        out.insert(it.key(), it.value());
    return out;
}

FieldSet fromFieldsV1(const QJsonObject &fieldsV1)
{
    FieldSet out;
    for (auto it = fieldsV1.begin(); it != fieldsV1.end(); ++it) {
        const QJsonObject child = it.value().toObject();
        if (child.isEmpty()) {
            out.insert(it.key());
            continue;
        }
        for (const QString &p : fromFieldsV1(child))
            out.insert(it.key() + kSep + p);
    }
    return out;
}

QString displayPath(const QString &path)
{
    QString out;
    for (const QString &key : path.split(kSep)) {
        if (key.startsWith(QLatin1String("f:"))) {
            out += QLatin1Char('.') + key.mid(2);
        } else if (key.startsWith(QLatin1String("v:"))) {
            out += QStringLiteral("[=%1]").arg(key.mid(2));
        } else if (key.startsWith(QLatin1String("k:"))) {
            const QJsonObject k = parseCompact(key.mid(2)).toObject();
            QStringList parts;
            for (auto it = k.begin(); it != k.end(); ++it)
                parts.append(it.key() + QLatin1Char('=') + compact(it.value()));
            out += QLatin1Char('[') + parts.join(QLatin1Char(',')) + QLatin1Char(']');
        }
    }
    return out;
}

std::variant<QJsonObject, Status> apply(const QJsonObject &current, const QJsonObject &applied,
                                        const pb::Descriptor *d, const Request &r)
{
    QList<Manager> managers = managersOf(current);
    const Leaves before = leavesOf(current, d, false);
    // An object written before its first apply: what it holds belongs to a manager of that
    // name, as in kube (so that an apply cannot silently take it over).
    if (!current.isEmpty() && managers.isEmpty() && !before.isEmpty()) {
        Manager m;
        m.entry = QJsonObject{{QStringLiteral("manager"), kBeforeFirstApply},
                              {QStringLiteral("operation"), QStringLiteral("Update")},
                              {QStringLiteral("apiVersion"), r.apiVersion},
                              {QStringLiteral("time"), rfc3339(r.now)}};
        m.fields = FieldSet(before.keyBegin(), before.keyEnd());
        managers.append(m);
    }
    const FieldSet mine = fieldsOf(applied, d);
    Manager &self = managerFor(managers, r.manager, QStringLiteral("Apply"), r.apiVersion);
    const FieldSet previouslyMine = self.fields;
    FieldSet others;
    for (const Manager &m : std::as_const(managers))
        if (&m != &self)
            others.unite(m.fields);

    QJsonObject result = merge(current, applied, d);
    // What this manager applied before and no longer does, and nobody else owns, goes.
    QList<QStringList> dropped;
    for (const QString &p : previouslyMine - mine - others)
        dropped.append(p.split(kSep));
    removeAll(result, dropped, 0, d);

    const FieldSet changed = changedBetween(before, leavesOf(result, d, false)) & mine;
    QList<std::pair<const Manager *, QStringList>> conflicts;
    int count = 0;
    for (const Manager &m : std::as_const(managers)) {
        if (&m == &self)
            continue;
        QStringList paths;
        for (const QString &p : m.fields &changed)
            paths.append(displayPath(p));
        if (paths.isEmpty())
            continue;
        paths.sort();
        count += int(paths.size());
        conflicts.append({&m, paths});
    }
    if (!conflicts.isEmpty() && !r.force) {
        // kube's NewApplyConflict and merge.Conflicts' text.
        QList<StatusCause> causes;
        QStringList lines;
        std::sort(conflicts.begin(), conflicts.end(), [](const auto &a, const auto &b) {
            return a.first->printed() < b.first->printed();
        });
        for (const auto &[m, paths] : std::as_const(conflicts)) {
            lines.append(QStringLiteral("conflicts with %1:").arg(m->printed()));
            for (const QString &p : paths) {
                causes.append(StatusCause{QStringLiteral("FieldManagerConflict"),
                                          QStringLiteral("conflict with %1").arg(m->printed()), p});
                lines.append(QStringLiteral("- ") + p);
            }
        }
        Status s;
        s.code = 409;
        s.reason = QStringLiteral("Conflict");
        s.message =
            count == 1
                ? QStringLiteral("Apply failed with 1 conflict: conflict with %1: %2")
                      .arg(conflicts.first().first->printed(), conflicts.first().second.first())
                : QStringLiteral("Apply failed with %1 conflicts: %2")
                      .arg(count)
                      .arg(lines.join(kSep));
        StatusDetails details;
        details.causes = causes;
        s.details = details;
        return s;
    }
    // Forced: the fields change hands.
    for (Manager &m : managers)
        if (&m != &self)
            m.fields -= changed;
    self.fields = mine;
    self.entry.insert(QStringLiteral("apiVersion"), r.apiVersion);
    self.entry.insert(QStringLiteral("time"), rfc3339(r.now));
    return withManagers(result, managers);
}

QJsonObject trackUpdate(const QJsonObject &before, const QJsonObject &after,
                        const pb::Descriptor *d, const QString &manager, const QString &apiVersion,
                        const QDateTime &now)
{
    QList<Manager> managers = managersOf(before);
    if (managers.isEmpty())
        return after;
    const Leaves afterLeaves = leavesOf(after, d, false);
    const FieldSet changed = changedBetween(leavesOf(before, d, false), afterLeaves);
    if (changed.isEmpty())
        return withManagers(after, managers);
    for (Manager &m : managers)
        m.fields -= changed;
    Manager &self = managerFor(managers, manager.isEmpty() ? QStringLiteral("unknown") : manager,
                               QStringLiteral("Update"), apiVersion);
    for (const QString &p : changed)
        if (afterLeaves.contains(p))
            self.fields.insert(p);
    self.entry.insert(QStringLiteral("time"), rfc3339(now));
    return withManagers(after, managers);
}

} // namespace Gatehouse::Cluster::ServerSideApply
