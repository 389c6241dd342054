#include "cluster/protobuf.h"

#include <QJsonArray>
#include <QMap>
#include <QStringDecoder>
#include <QStringList>

#include <cstring>
#include <memory>
#include <span>
#include <vector>

namespace Gatehouse::Cluster {

namespace {

// The envelope is level 1, the object in its raw field level 2, so the schemas below reach
// level 5 at most; only unknown groups nested in each other can go deeper.
constexpr int kMaxMessageDepth = 16;
constexpr int kMaxVarintBytes = 10;
constexpr quint64 kMaxFieldNumber = (quint64(1) << 29) - 1;
constexpr char kMagic[] = {'k', '8', 's', '\0'};

enum WireType : quint32 {
    Varint = 0,
    Fixed64 = 1,
    LengthDelimited = 2,
    StartGroup = 3,
    EndGroup = 4,
    Fixed32 = 5,
};

// How a known field is read and how it appears in the JSON.
enum class Kind {
    String,         // last occurrence wins; omitted when empty
    Bool,           // a varint, non-zero is true; omitted when false
    Int64,          // a varint (int64, two's complement); omitted when absent
    Bytes,          // last occurrence wins; never in the JSON (the envelope's raw object)
    Message,        // occurrences merge; omitted when nothing in it is set (a status)
    PresentMessage, // occurrences merge; kept, even as {}, once on the wire (a Go pointer)
    AlwaysMessage,  // occurrences merge; always in the JSON, {} when absent (metadata, spec)
    RepeatedString, // a JSON array in wire order; omitted when empty
    StringMap,      // map<string, string> (entries {1 key, 2 value}); omitted when empty
    StringListMap,  // map<string, {1 repeated items}> -> {"k": [...]}; omitted when empty
};

struct Schema;

struct Field
{
    quint32 number;
    Kind kind;
    const char *json;
    const Schema *message; // the nested message, or a map's entry message
};

struct Schema
{
    std::span<const Field> fields;
};

constexpr Field kStringEntryFields[] = {
    {1, Kind::String, "key", nullptr},
    {2, Kind::String, "value", nullptr},
};
constexpr Schema kStringEntry{kStringEntryFields};

constexpr Field kExtraValueFields[] = {{1, Kind::RepeatedString, "items", nullptr}};
constexpr Schema kExtraValue{kExtraValueFields};

constexpr Field kExtraEntryFields[] = {
    {1, Kind::String, "key", nullptr},
    {2, Kind::Message, "value", &kExtraValue},
};
constexpr Schema kExtraEntry{kExtraEntryFields};

constexpr Field kTypeMetaFields[] = {
    {1, Kind::String, "apiVersion", nullptr},
    {2, Kind::String, "kind", nullptr},
};
constexpr Schema kTypeMeta{kTypeMetaFields};

// runtime.Unknown. The content encoding and type are read (so a wrong wire type is an
// error) but not used: the API server ignores them too.
constexpr Field kUnknownFields[] = {
    {1, Kind::Message, "typeMeta", &kTypeMeta},
    {2, Kind::Bytes, "raw", nullptr},
    {3, Kind::String, "contentEncoding", nullptr},
    {4, Kind::String, "contentType", nullptr},
};
constexpr Schema kUnknown{kUnknownFields};
constexpr std::size_t kUnknownTypeMeta = 0;
constexpr std::size_t kUnknownRaw = 1;

// The ObjectMeta fields a review request may carry; the others (selfLink, resourceVersion,
// generation, creationTimestamp, ...) are skipped.
constexpr Field kObjectMetaFields[] = {
    {1, Kind::String, "name", nullptr},
    {2, Kind::String, "generateName", nullptr},
    {3, Kind::String, "namespace", nullptr},
    {5, Kind::String, "uid", nullptr},
    {11, Kind::StringMap, "labels", &kStringEntry},
    {12, Kind::StringMap, "annotations", &kStringEntry},
};
constexpr Schema kObjectMeta{kObjectMetaFields};

// FieldSelectorAttributes and LabelSelectorAttributes (their requirements are skipped).
constexpr Field kSelectorFields[] = {{1, Kind::String, "rawSelector", nullptr}};
constexpr Schema kSelector{kSelectorFields};

constexpr Field kResourceAttributesFields[] = {
    {1, Kind::String, "namespace", nullptr},
    {2, Kind::String, "verb", nullptr},
    {3, Kind::String, "group", nullptr},
    {4, Kind::String, "version", nullptr},
    {5, Kind::String, "resource", nullptr},
    {6, Kind::String, "subresource", nullptr},
    {7, Kind::String, "name", nullptr},
    {8, Kind::PresentMessage, "fieldSelector", &kSelector},
    {9, Kind::PresentMessage, "labelSelector", &kSelector},
};
constexpr Schema kResourceAttributes{kResourceAttributesFields};

constexpr Field kNonResourceAttributesFields[] = {
    {1, Kind::String, "path", nullptr},
    {2, Kind::String, "verb", nullptr},
};
constexpr Schema kNonResourceAttributes{kNonResourceAttributesFields};

// SelfSubjectAccessReviewSpec has only the two attribute fields; 3-6 are skipped like any
// unknown field, as the API server does (the reviewed user is the caller).
constexpr Field kSelfSubjectAccessReviewSpecFields[] = {
    {1, Kind::PresentMessage, "resourceAttributes", &kResourceAttributes},
    {2, Kind::PresentMessage, "nonResourceAttributes", &kNonResourceAttributes},
};
constexpr Schema kSelfSubjectAccessReviewSpec{kSelfSubjectAccessReviewSpecFields};

constexpr Field kSubjectAccessReviewSpecFields[] = {
    {1, Kind::PresentMessage, "resourceAttributes", &kResourceAttributes},
    {2, Kind::PresentMessage, "nonResourceAttributes", &kNonResourceAttributes},
    {3, Kind::String, "user", nullptr},
    {4, Kind::RepeatedString, "groups", nullptr},
    {5, Kind::StringListMap, "extra", &kExtraEntry},
    {6, Kind::String, "uid", nullptr},
};
constexpr Schema kSubjectAccessReviewSpec{kSubjectAccessReviewSpecFields};

constexpr Field kSubjectAccessReviewStatusFields[] = {
    {1, Kind::Bool, "allowed", nullptr},
    {2, Kind::String, "reason", nullptr},
    {3, Kind::String, "evaluationError", nullptr},
    {4, Kind::Bool, "denied", nullptr},
};
constexpr Schema kSubjectAccessReviewStatus{kSubjectAccessReviewStatusFields};

constexpr Field kSelfSubjectAccessReviewFields[] = {
    {1, Kind::AlwaysMessage, "metadata", &kObjectMeta},
    {2, Kind::AlwaysMessage, "spec", &kSelfSubjectAccessReviewSpec},
    {3, Kind::Message, "status", &kSubjectAccessReviewStatus},
};
constexpr Schema kSelfSubjectAccessReview{kSelfSubjectAccessReviewFields};

// SubjectAccessReview and LocalSubjectAccessReview.
constexpr Field kSubjectAccessReviewFields[] = {
    {1, Kind::AlwaysMessage, "metadata", &kObjectMeta},
    {2, Kind::AlwaysMessage, "spec", &kSubjectAccessReviewSpec},
    {3, Kind::Message, "status", &kSubjectAccessReviewStatus},
};
constexpr Schema kSubjectAccessReview{kSubjectAccessReviewFields};

constexpr Field kSelfSubjectRulesReviewSpecFields[] = {{1, Kind::String, "namespace", nullptr}};
constexpr Schema kSelfSubjectRulesReviewSpec{kSelfSubjectRulesReviewSpecFields};

// The status (the rules found) is the server's answer; a client's is skipped.
constexpr Field kSelfSubjectRulesReviewFields[] = {
    {1, Kind::AlwaysMessage, "metadata", &kObjectMeta},
    {2, Kind::AlwaysMessage, "spec", &kSelfSubjectRulesReviewSpec},
};
constexpr Schema kSelfSubjectRulesReview{kSelfSubjectRulesReviewFields};

// No spec; the status (field 2, the user info) is the server's answer and is skipped.
constexpr Field kSelfSubjectReviewFields[] = {{1, Kind::AlwaysMessage, "metadata", &kObjectMeta}};
constexpr Schema kSelfSubjectReview{kSelfSubjectReviewFields};

// authentication.k8s.io/v1 TokenRequest (kubectl create token): spec {1 audiences,
// 4 expirationSeconds}; the bound object reference (3) is skipped.
constexpr Field kTokenRequestSpecFields[] = {
    {1, Kind::RepeatedString, "audiences", nullptr},
    {4, Kind::Int64, "expirationSeconds", nullptr},
};
constexpr Schema kTokenRequestSpec{kTokenRequestSpecFields};
constexpr Field kTokenRequestFields[] = {
    {1, Kind::AlwaysMessage, "metadata", &kObjectMeta},
    {2, Kind::AlwaysMessage, "spec", &kTokenRequestSpec},
};
constexpr Schema kTokenRequest{kTokenRequestFields};

struct KnownKind
{
    const char *apiVersion;
    const char *kind;
    const Schema *schema;
};

constexpr KnownKind kKnownKinds[] = {
    {"authorization.k8s.io/v1", "SelfSubjectAccessReview", &kSelfSubjectAccessReview},
    {"authorization.k8s.io/v1", "SubjectAccessReview", &kSubjectAccessReview},
    {"authorization.k8s.io/v1", "LocalSubjectAccessReview", &kSubjectAccessReview},
    {"authorization.k8s.io/v1", "SelfSubjectRulesReview", &kSelfSubjectRulesReview},
    {"authentication.k8s.io/v1", "SelfSubjectReview", &kSelfSubjectReview},
    {"authentication.k8s.io/v1beta1", "SelfSubjectReview", &kSelfSubjectReview},
    {"authentication.k8s.io/v1alpha1", "SelfSubjectReview", &kSelfSubjectReview},
    {"authentication.k8s.io/v1", "TokenRequest", &kTokenRequest},
};

// A range of the body still to read.
struct Cursor
{
    const char *pos = nullptr;
    const char *end = nullptr;

    bool atEnd() const { return pos == end; }
    qsizetype remaining() const { return end - pos; }
};

struct Node;

// What was read for one field of a schema. Repeated and map fields accumulate in
// containers, so a body of many small fields decodes in linear time.
struct Slot
{
    bool present = false;
    bool flag = false;
    qint64 number = 0;
    QString string;
    Cursor bytes;
    QStringList list;
    QMap<QString, QString> map;
    QMap<QString, QStringList> listMap;
    std::unique_ptr<Node> message;
};

// A decoded message: one slot per field of its schema, in schema order.
struct Node
{
    std::vector<Slot> values;
};

// UTF-8, invalid sequences replaced by U+FFFD. Not QString::fromUtf8, which drops a leading
// byte order mark: U+FEFF is kept, as JSON and the API server keep it.
QString text(const Cursor &c)
{
    QStringDecoder decoder(QStringDecoder::Utf8, QStringDecoder::Flag::Stateless |
                                                     QStringDecoder::Flag::ConvertInitialBom);
    return decoder.decode(QByteArrayView(c.pos, c.remaining()));
}

const char *wireTypeName(quint32 wireType)
{
    switch (wireType) {
    case Varint:
        return "varint";
    case Fixed64:
        return "64-bit";
    case LengthDelimited:
        return "length-delimited";
    case StartGroup:
        return "start-group";
    case EndGroup:
        return "end-group";
    case Fixed32:
        return "32-bit";
    default:
        return "invalid";
    }
}

class Decoder
{
public:
    explicit Decoder(const char *origin) : origin_(origin) {}

    const QString &error() const { return error_; }

    // Reads the fields of one message into node (merging with what it already holds).
    bool message(Cursor c, const Schema &schema, Node *node, int depth)
    {
        if (depth > kMaxMessageDepth)
            return fail(c.pos,
                        QStringLiteral("messages nested deeper than %1").arg(kMaxMessageDepth));
        if (node->values.empty())
            node->values.resize(schema.fields.size());
        while (!c.atEnd()) {
            const char *start = c.pos;
            quint32 number = 0;
            quint32 wireType = 0;
            if (!tag(c, &number, &wireType))
                return false;
            std::size_t index = 0;
            while (index < schema.fields.size() && schema.fields[index].number != number)
                ++index;
            if (index == schema.fields.size()) {
                if (!skipField(c, number, wireType, depth))
                    return false;
                continue;
            }
            const Field &field = schema.fields[index];
            const quint32 expected =
                field.kind == Kind::Bool || field.kind == Kind::Int64 ? Varint : LengthDelimited;
            if (wireType != expected)
                return fail(start, QStringLiteral("field %1 (%2) is %3, expected %4")
                                       .arg(number)
                                       .arg(QLatin1String(field.json))
                                       .arg(QLatin1String(wireTypeName(wireType)))
                                       .arg(QLatin1String(wireTypeName(expected))));
            if (!read(c, field, &node->values[index], depth))
                return false;
        }
        return true;
    }

private:
    bool fail(const char *at, const QString &what)
    {
        error_ =
            QStringLiteral("malformed protobuf body at byte %1: %2").arg(at - origin_).arg(what);
        return false;
    }

    bool varint(Cursor &c, quint64 *value)
    {
        const char *start = c.pos;
        quint64 result = 0;
        for (int i = 0; i < kMaxVarintBytes; ++i) {
            if (c.atEnd())
                return fail(start, QStringLiteral("truncated varint"));
            const auto byte = quint8(*c.pos);
            ++c.pos;
            result |= quint64(byte & 0x7fU) << (7 * i);
            if ((byte & 0x80U) == 0) {
                *value = result;
                return true;
            }
        }
        return fail(start, QStringLiteral("varint longer than %1 bytes").arg(kMaxVarintBytes));
    }

    bool tag(Cursor &c, quint32 *number, quint32 *wireType)
    {
        const char *start = c.pos;
        quint64 key = 0;
        if (!varint(c, &key))
            return false;
        const quint64 field = key >> 3;
        if (field == 0 || field > kMaxFieldNumber)
            return fail(start, QStringLiteral("invalid field number %1").arg(field));
        *number = quint32(field);
        *wireType = quint32(key & 7U);
        return true;
    }

    bool delimited(Cursor &c, Cursor *contents)
    {
        const char *start = c.pos;
        quint64 length = 0;
        if (!varint(c, &length))
            return false;
        if (length > quint64(c.remaining()))
            return fail(start, QStringLiteral("length %1 runs past the end of its message (%2 "
                                              "bytes left)")
                                   .arg(length)
                                   .arg(c.remaining()));
        contents->pos = c.pos;
        contents->end = c.pos + qsizetype(length);
        c.pos = contents->end;
        return true;
    }

    bool fixed(Cursor &c, qsizetype size)
    {
        if (c.remaining() < size)
            return fail(c.pos, QStringLiteral("truncated %1-bit value").arg(size * 8));
        c.pos += size;
        return true;
    }

    // Skips an unknown field whose tag was just read, in a message at depth.
    bool skipField(Cursor &c, quint32 number, quint32 wireType, int depth)
    {
        switch (wireType) {
        case Varint: {
            quint64 ignored = 0;
            return varint(c, &ignored);
        }
        case Fixed64:
            return fixed(c, 8);
        case LengthDelimited: {
            Cursor ignored;
            return delimited(c, &ignored);
        }
        case StartGroup:
            return skipGroup(c, number, depth + 1);
        case EndGroup:
            return fail(c.pos, QStringLiteral("end of group %1 outside a group").arg(number));
        case Fixed32:
            return fixed(c, 4);
        default:
            return fail(
                c.pos, QStringLiteral("invalid wire type %1 (field %2)").arg(wireType).arg(number));
        }
    }

    // Skips the fields of a group up to its end-group tag (with the same field number).
    bool skipGroup(Cursor &c, quint32 number, int depth)
    {
        if (depth > kMaxMessageDepth)
            return fail(c.pos,
                        QStringLiteral("groups nested deeper than %1").arg(kMaxMessageDepth));
        while (!c.atEnd()) {
            const char *start = c.pos;
            quint32 inner = 0;
            quint32 wireType = 0;
            if (!tag(c, &inner, &wireType))
                return false;
            if (wireType == EndGroup) {
                if (inner != number)
                    return fail(
                        start, QStringLiteral("group %1 ended as group %2").arg(number).arg(inner));
                return true;
            }
            if (!skipField(c, inner, wireType, depth))
                return false;
        }
        return fail(c.pos, QStringLiteral("group %1 is not terminated").arg(number));
    }

    // Reads a known field whose tag (of the expected wire type) was just read.
    bool read(Cursor &c, const Field &field, Slot *slot, int depth)
    {
        if (field.kind == Kind::Bool || field.kind == Kind::Int64) {
            quint64 value = 0;
            if (!varint(c, &value))
                return false;
            slot->present = true;
            slot->flag = value != 0;
            slot->number = qint64(value);
            return true;
        }
        Cursor contents;
        if (!delimited(c, &contents))
            return false;
        slot->present = true;
        switch (field.kind) {
        case Kind::String:
            slot->string = text(contents);
            return true;
        case Kind::Bytes:
            slot->bytes = contents;
            return true;
        case Kind::RepeatedString:
            slot->list.append(text(contents));
            return true;
        case Kind::Message:
        case Kind::PresentMessage:
        case Kind::AlwaysMessage:
            if (!slot->message)
                slot->message = std::make_unique<Node>();
            return message(contents, *field.message, slot->message.get(), depth + 1);
        case Kind::StringMap: {
            Node entry;
            if (!message(contents, *field.message, &entry, depth + 1))
                return false;
            slot->map.insert(entry.values[0].string, entry.values[1].string);
            return true;
        }
        case Kind::StringListMap: {
            Node entry;
            if (!message(contents, *field.message, &entry, depth + 1))
                return false;
            const Slot &value = entry.values[1];
            slot->listMap.insert(entry.values[0].string,
                                 value.message ? value.message->values[0].list : QStringList());
            return true;
        }
        case Kind::Bool:
        case Kind::Int64:
            break;
        }
        return true;
    }

    const char *origin_;
    QString error_;
};

QJsonObject toJson(const Node &node, const Schema &schema)
{
    QJsonObject object;
    for (std::size_t i = 0; i < schema.fields.size(); ++i) {
        const Field &field = schema.fields[i];
        const QString key = QString::fromLatin1(field.json);
        const Slot *slot = i < node.values.size() ? &node.values[i] : nullptr;
        if (field.kind == Kind::AlwaysMessage) {
            object.insert(key, slot && slot->message ? toJson(*slot->message, *field.message)
                                                     : QJsonObject());
            continue;
        }
        if (!slot || !slot->present)
            continue;
        switch (field.kind) {
        case Kind::String:
            if (!slot->string.isEmpty())
                object.insert(key, slot->string);
            break;
        case Kind::Bool:
            if (slot->flag)
                object.insert(key, true);
            break;
        case Kind::Int64:
            if (slot->present)
                object.insert(key, double(slot->number));
            break;
        case Kind::RepeatedString:
            if (!slot->list.isEmpty())
                object.insert(key, QJsonArray::fromStringList(slot->list));
            break;
        case Kind::StringMap:
            if (!slot->map.isEmpty()) {
                QJsonObject map;
                for (auto it = slot->map.cbegin(); it != slot->map.cend(); ++it)
                    map.insert(it.key(), it.value());
                object.insert(key, map);
            }
            break;
        case Kind::StringListMap:
            if (!slot->listMap.isEmpty()) {
                QJsonObject map;
                for (auto it = slot->listMap.cbegin(); it != slot->listMap.cend(); ++it)
                    map.insert(it.key(), QJsonArray::fromStringList(it.value()));
                object.insert(key, map);
            }
            break;
        case Kind::Message: {
            const QJsonObject message = toJson(*slot->message, *field.message);
            if (!message.isEmpty())
                object.insert(key, message);
            break;
        }
        case Kind::PresentMessage:
            object.insert(key, toJson(*slot->message, *field.message));
            break;
        case Kind::Bytes:
        case Kind::AlwaysMessage:
            break;
        }
    }
    return object;
}

const KnownKind *findKind(const QString &apiVersion, const QString &kind)
{
    for (const KnownKind &known : kKnownKinds)
        if (apiVersion == QLatin1String(known.apiVersion) && kind == QLatin1String(known.kind))
            return &known;
    return nullptr;
}

} // namespace

std::variant<QJsonObject, ProtobufError> decodeProtobufObject(const QByteArray &body)
{
    if (body.size() < qsizetype(sizeof kMagic) ||
        std::memcmp(body.constData(), kMagic, sizeof kMagic) != 0)
        return ProtobufError{
            false, QStringLiteral("not a Kubernetes protobuf body (no \"k8s\\0\" magic prefix)")};
    Decoder decoder(body.constData());
    Node envelope;
    // (A view, not pointer arithmetic on constData(): GCC cannot tell it is never the empty
    // array's one byte and warns.)
    const QByteArrayView rest = QByteArrayView(body).sliced(qsizetype(sizeof kMagic));
    const Cursor all{rest.data(), rest.data() + rest.size()};
    if (!decoder.message(all, kUnknown, &envelope, 1))
        return ProtobufError{false, decoder.error()};

    QString apiVersion;
    QString kind;
    if (const Node *typeMeta = envelope.values[kUnknownTypeMeta].message.get()) {
        apiVersion = typeMeta->values[0].string;
        kind = typeMeta->values[1].string;
    }
    if (kind.isEmpty())
        return ProtobufError{false, QStringLiteral("protobuf body without a kind")};
    if (apiVersion.isEmpty())
        return ProtobufError{false, QStringLiteral("protobuf body without an apiVersion")};
    const KnownKind *known = findKind(apiVersion, kind);
    if (!known)
        return ProtobufError{true, QStringLiteral("protobuf bodies of kind %1 (%2) are not "
                                                  "supported; send application/json")
                                       .arg(kind, apiVersion)};

    // An absent raw field is an empty object, as in protobuf (every field at its default).
    Node object;
    if (!decoder.message(envelope.values[kUnknownRaw].bytes, *known->schema, &object, 2))
        return ProtobufError{false, decoder.error()};
    QJsonObject json = toJson(object, *known->schema);
    json.insert(QStringLiteral("apiVersion"), apiVersion);
    json.insert(QStringLiteral("kind"), kind);
    return json;
}

} // namespace Gatehouse::Cluster
