#include "cluster/protobuf.h"

#include "cluster/clusterlogging.h"
#include "cluster/schemas.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/message.h>

#include <QDateTime>
#include <QFile>
#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QMap>
#include <QRegularExpression>
#include <QSet>
#include <QStringDecoder>

#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <string>

namespace pb = google::protobuf;

namespace Gatehouse::Cluster {

namespace {

using namespace KubeSchemas;

constexpr char kMagic[] = {'k', '8', 's', '\0'};
// Go's time.Duration.String(): "1h2m3.5s", "1.5ms", "0s".
QString goDuration(qint64 ns)
{
    if (ns == 0)
        return QStringLiteral("0s");
    const bool negative = ns < 0;
    const quint64 u = negative ? quint64(0) - quint64(ns) : quint64(ns);
    QString out;
    auto fraction = [](quint64 value, quint64 unit) {
        QString s = QString::number(value / unit);
        if (const quint64 rest = value % unit) {
            QString digits = QString::number(rest).rightJustified(
                qsizetype(QString::number(unit).size() - 1), QLatin1Char('0'));
            while (digits.endsWith(QLatin1Char('0')))
                digits.chop(1);
            s += QLatin1Char('.') + digits;
        }
        return s;
    };
    if (u < 1000)
        out = QString::number(u) + QStringLiteral("ns");
    else if (u < 1000000)
        out = fraction(u, 1000) + QStringLiteral("µs");
    else if (u < 1000000000)
        out = fraction(u, 1000000) + QStringLiteral("ms");
    else {
        const quint64 hours = u / 3600000000000ULL;
        const quint64 minutes = u / 60000000000ULL % 60;
        if (hours)
            out += QString::number(hours) + QLatin1Char('h');
        if (hours || minutes)
            out += QString::number(minutes) + QLatin1Char('m');
        out += fraction(u % 60000000000ULL, 1000000000) + QLatin1Char('s');
    }
    return negative ? QLatin1Char('-') + out : out;
}

std::optional<qint64> parseGoDuration(const QString &text)
{
    static const QRegularExpression part(QStringLiteral(R"((\d+(?:\.\d*)?)(ns|us|µs|ms|s|m|h))"));
    QString s = text;
    const bool negative = s.startsWith(QLatin1Char('-'));
    if (negative || s.startsWith(QLatin1Char('+')))
        s.remove(0, 1);
    if (s == QLatin1String("0"))
        return 0;
    if (s.isEmpty())
        return std::nullopt;
    static const QHash<QString, double> units = {
        {QStringLiteral("ns"), 1},    {QStringLiteral("us"), 1e3}, {QStringLiteral("µs"), 1e3},
        {QStringLiteral("ms"), 1e6},  {QStringLiteral("s"), 1e9},  {QStringLiteral("m"), 60e9},
        {QStringLiteral("h"), 3600e9}};
    double total = 0;
    qsizetype at = 0;
    while (at < s.size()) {
        const QRegularExpressionMatch m = part.match(s, at, QRegularExpression::NormalMatch,
                                                     QRegularExpression::AnchorAtOffsetMatchOption);
        if (!m.hasMatch())
            return std::nullopt;
        total += m.captured(1).toDouble() * units.value(m.captured(2));
        at = m.capturedEnd();
    }
    if (total > 9.2e18)
        return std::nullopt;
    return negative ? -qint64(total) : qint64(total);
}

QString formatTime(qint64 seconds, int nanos, bool micro)
{
    const QDateTime t = QDateTime::fromSecsSinceEpoch(seconds, Qt::UTC);
    QString out = t.toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
    if (micro)
        out += QLatin1Char('.') +
               QString::number(qMax(0, nanos) / 1000).rightJustified(6, QLatin1Char('0'));
    return out + QLatin1Char('Z');
}

// RFC 3339, with up to nine fractional digits and Z or an offset.
std::optional<std::pair<qint64, int>> parseTime(const QString &text)
{
    static const QRegularExpression re(
        QStringLiteral(R"(^(\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d)(?:\.(\d{1,9}))?(Z|[+-]\d\d:\d\d)\z)"));
    const QRegularExpressionMatch m = re.match(text);
    if (!m.hasMatch())
        return std::nullopt;
    const QDateTime t = QDateTime::fromString(m.captured(1) + m.captured(3), Qt::ISODate);
    if (!t.isValid())
        return std::nullopt;
    const int nanos = m.captured(2).leftJustified(9, QLatin1Char('0')).toInt();
    return std::pair{t.toSecsSinceEpoch(), nanos};
}

// ---- protobuf -> JSON ----

QJsonValue messageToJson(const pb::Message &m);

bool isZero(const QJsonValue &v)
{
    return (v.isString() && v.toString().isEmpty()) || (v.isBool() && !v.toBool()) ||
           (v.isDouble() && v.toDouble() == 0);
}

QJsonValue scalarToJson(const pb::Message &m, const pb::FieldDescriptor *f, int index)
{
    const pb::Reflection *r = m.GetReflection();
    const bool rep = index >= 0;
    switch (f->cpp_type()) {
    case pb::FieldDescriptor::CPPTYPE_INT32:
        return rep ? r->GetRepeatedInt32(m, f, index) : r->GetInt32(m, f);
    case pb::FieldDescriptor::CPPTYPE_INT64:
        return qint64(rep ? r->GetRepeatedInt64(m, f, index) : r->GetInt64(m, f));
    case pb::FieldDescriptor::CPPTYPE_UINT32:
        return double(rep ? r->GetRepeatedUInt32(m, f, index) : r->GetUInt32(m, f));
    case pb::FieldDescriptor::CPPTYPE_UINT64:
        return double(rep ? r->GetRepeatedUInt64(m, f, index) : r->GetUInt64(m, f));
    case pb::FieldDescriptor::CPPTYPE_DOUBLE:
        return rep ? r->GetRepeatedDouble(m, f, index) : r->GetDouble(m, f);
    case pb::FieldDescriptor::CPPTYPE_FLOAT:
        return double(rep ? r->GetRepeatedFloat(m, f, index) : r->GetFloat(m, f));
    case pb::FieldDescriptor::CPPTYPE_BOOL:
        return rep ? r->GetRepeatedBool(m, f, index) : r->GetBool(m, f);
    case pb::FieldDescriptor::CPPTYPE_STRING: {
        const std::string s = rep ? r->GetRepeatedString(m, f, index) : r->GetString(m, f);
        if (f->type() == pb::FieldDescriptor::TYPE_BYTES)
            return QString::fromLatin1(QByteArray(s.data(), qsizetype(s.size())).toBase64());
        return fromStd(s);
    }
    case pb::FieldDescriptor::CPPTYPE_MESSAGE: {
        const pb::Message &sub = rep ? r->GetRepeatedMessage(m, f, index) : r->GetMessage(m, f);
        return messageToJson(sub);
    }
    case pb::FieldDescriptor::CPPTYPE_ENUM:
        return rep ? r->GetRepeatedEnumValue(m, f, index) : r->GetEnumValue(m, f);
    }
    return {};
}

QJsonValue rawJson(const std::string &raw)
{
    if (raw.empty())
        return QJsonValue(QJsonValue::Undefined);
    const QJsonDocument doc =
        QJsonDocument::fromJson(QByteArray(raw.data(), qsizetype(raw.size())));
    if (doc.isObject())
        return doc.object();
    if (doc.isArray())
        return doc.array();
    return QJsonValue(QJsonValue::Undefined);
}

// A special message's JSON; Undefined to leave it out.
QJsonValue specialToJson(Special special, const pb::Message &m)
{
    const pb::Descriptor *d = m.GetDescriptor();
    const pb::Reflection *r = m.GetReflection();
    auto field = [d](int number) { return d->FindFieldByNumber(number); };
    switch (special) {
    case Special::Time:
    case Special::MicroTime: {
        const qint64 seconds = r->GetInt64(m, field(1));
        const int nanos = r->GetInt32(m, field(2));
        if (seconds == 0 && nanos == 0)
            return QJsonValue(QJsonValue::Undefined);
        return formatTime(seconds, nanos, special == Special::MicroTime);
    }
    case Special::Duration:
        return goDuration(r->GetInt64(m, field(1)));
    case Special::FieldsV1:
    case Special::RawExtension:
        return rawJson(r->GetString(m, field(1)));
    case Special::IntOrString:
        if (r->GetInt64(m, field(1)) == 1)
            return fromStd(r->GetString(m, field(3)));
        return r->GetInt32(m, field(2));
    case Special::Quantity: {
        // Go's zero Quantity is "0".
        const std::string s = r->GetString(m, field(1));
        return s.empty() ? QStringLiteral("0") : fromStd(s);
    }
    case Special::StringList: {
        QJsonArray items;
        const pb::FieldDescriptor *f = field(1);
        for (int i = 0; i < r->FieldSize(m, f); ++i)
            items.append(fromStd(r->GetRepeatedString(m, f, i)));
        return items;
    }
    case Special::None:
        break;
    }
    return {};
}

QJsonValue messageToJson(const pb::Message &m)
{
    const pb::Descriptor *d = m.GetDescriptor();
    if (const Special special = specialOf(d); special != Special::None)
        return specialToJson(special, m);
    const pb::Reflection *r = m.GetReflection();
    QJsonObject out;
    for (int i = 0; i < d->field_count(); ++i) {
        const pb::FieldDescriptor *f = d->field(i);
        const QString name = jsonName(f);
        if (f->is_map()) {
            const int n = r->FieldSize(m, f);
            if (n == 0)
                continue;
            const pb::FieldDescriptor *keyField = f->message_type()->map_key();
            const pb::FieldDescriptor *valueField = f->message_type()->map_value();
            // Sorted first: a QJsonObject keeps its keys sorted, and inserting in order
            // appends (in protobuf's hash order, each insert would move the keys after it).
            QMap<QString, QJsonValue> sorted;
            for (int j = 0; j < n; ++j) {
                const pb::Message &entry = r->GetRepeatedMessage(m, f, j);
                QJsonValue value = scalarToJson(entry, valueField, -1);
                if (value.isUndefined())
                    value = QJsonValue(QJsonValue::Null);
                sorted.insert(scalarToJson(entry, keyField, -1).toString(), value);
            }
            QJsonObject map;
            for (auto it = sorted.cbegin(); it != sorted.cend(); ++it)
                map.insert(it.key(), it.value());
            out.insert(name, map);
        } else if (f->is_repeated()) {
            const int n = r->FieldSize(m, f);
            if (n == 0)
                continue;
            QJsonArray items;
            for (int j = 0; j < n; ++j) {
                const QJsonValue v = scalarToJson(m, f, j);
                items.append(v.isUndefined() ? QJsonValue(QJsonValue::Null) : v);
            }
            out.insert(name, items);
        } else if (r->HasField(m, f)) {
            const QJsonValue v = scalarToJson(m, f, -1);
            if (v.isUndefined())
                continue;
            if (isInline(f)) {
                const QJsonObject fields = v.toObject();
                for (auto it = fields.begin(); it != fields.end(); ++it)
                    out.insert(it.key(), it.value());
                continue;
            }
            if (f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE && isZero(v) &&
                !isPointerScalar(f))
                continue;
            out.insert(name, v);
        }
    }
    return out;
}

// ---- JSON -> protobuf ----

class Filler
{
public:
    QString error;

    bool message(const QJsonValue &value, pb::Message *m, const QString &path)
    {
        const pb::Descriptor *d = m->GetDescriptor();
        if (const Special special = specialOf(d); special != Special::None)
            return this->special(special, value, m, path);
        if (!value.isObject())
            return fail(path, QStringLiteral("an object"));
        const QJsonObject object = value.toObject();
        const pb::Reflection *r = m->GetReflection();
        for (auto it = object.begin(); it != object.end(); ++it) {
            pb::Message *target = m;
            const pb::FieldDescriptor *f = fieldByJsonName(d, it.key());
            for (int i = 0; !f && i < d->field_count(); ++i)
                if (isInline(d->field(i)))
                    if ((f = fieldByJsonName(d->field(i)->message_type(), it.key())))
                        target = r->MutableMessage(m, d->field(i));
            if (!f || it.value().isNull())
                continue;
            const QString where = path.isEmpty() ? it.key() : path + QLatin1Char('.') + it.key();
            if (f->is_map()) {
                if (!it.value().isObject())
                    return fail(where, QStringLiteral("an object"));
                const QJsonObject map = it.value().toObject();
                for (auto e = map.begin(); e != map.end(); ++e) {
                    pb::Message *entry = target->GetReflection()->AddMessage(target, f);
                    entry->GetReflection()->SetString(entry, f->message_type()->map_key(),
                                                      toStd(e.key()));
                    if (!field(e.value(), entry, f->message_type()->map_value(), false,
                               where + QLatin1Char('.') + e.key()))
                        return false;
                }
            } else if (f->is_repeated()) {
                if (!it.value().isArray())
                    return fail(where, QStringLiteral("an array"));
                const QJsonArray items = it.value().toArray();
                for (qsizetype j = 0; j < items.size(); ++j)
                    if (!field(items.at(j), target, f, true,
                               where + QLatin1Char('[') + QString::number(j) + QLatin1Char(']')))
                        return false;
            } else if (!field(it.value(), target, f, false, where)) {
                return false;
            }
        }
        return true;
    }

private:
    bool fail(const QString &path, const QString &expected)
    {
        error = QStringLiteral("%1 is not %2").arg(path, expected);
        return false;
    }

    // Sets (or, for a repeated field, adds) one value of f in m.
    bool field(const QJsonValue &v, pb::Message *m, const pb::FieldDescriptor *f, bool add,
               const QString &path)
    {
        const pb::Reflection *r = m->GetReflection();
        if (v.isNull()) {
            // A null item or map value (Go's nil): an empty message, or the scalar's default.
            if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE)
                add ? r->AddMessage(m, f) : r->MutableMessage(m, f);
            else if (add)
                return fail(path, QStringLiteral("a value"));
            return true;
        }
        switch (f->cpp_type()) {
        case pb::FieldDescriptor::CPPTYPE_MESSAGE:
            return message(v, add ? r->AddMessage(m, f) : r->MutableMessage(m, f), path);
        case pb::FieldDescriptor::CPPTYPE_STRING: {
            if (!v.isString())
                return fail(path, QStringLiteral("a string"));
            std::string s = f->type() == pb::FieldDescriptor::TYPE_BYTES
                                ? QByteArray::fromBase64(v.toString().toLatin1()).toStdString()
                                : toStd(v.toString());
            add ? r->AddString(m, f, std::move(s)) : r->SetString(m, f, std::move(s));
            return true;
        }
        case pb::FieldDescriptor::CPPTYPE_BOOL:
            if (!v.isBool())
                return fail(path, QStringLiteral("a boolean"));
            add ? r->AddBool(m, f, v.toBool()) : r->SetBool(m, f, v.toBool());
            return true;
        case pb::FieldDescriptor::CPPTYPE_DOUBLE:
        case pb::FieldDescriptor::CPPTYPE_FLOAT:
            if (!v.isDouble())
                return fail(path, QStringLiteral("a number"));
            if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_DOUBLE)
                add ? r->AddDouble(m, f, v.toDouble()) : r->SetDouble(m, f, v.toDouble());
            else
                add ? r->AddFloat(m, f, float(v.toDouble()))
                    : r->SetFloat(m, f, float(v.toDouble()));
            return true;
        default:
            break;
        }
        // (toInteger() is exact for integers; 0 for a fraction or beyond 64 bits.)
        const qint64 n = v.toInteger();
        if (!v.isDouble() || (n == 0 && v.toDouble() != 0))
            return fail(path, QStringLiteral("an integer"));
        switch (f->cpp_type()) {
        case pb::FieldDescriptor::CPPTYPE_INT32:
            if (n < INT32_MIN || n > INT32_MAX)
                return fail(path, QStringLiteral("a 32-bit integer"));
            add ? r->AddInt32(m, f, int(n)) : r->SetInt32(m, f, int(n));
            return true;
        case pb::FieldDescriptor::CPPTYPE_INT64:
            add ? r->AddInt64(m, f, n) : r->SetInt64(m, f, n);
            return true;
        case pb::FieldDescriptor::CPPTYPE_UINT32:
            if (n < 0 || n > UINT32_MAX)
                return fail(path, QStringLiteral("an unsigned 32-bit integer"));
            add ? r->AddUInt32(m, f, quint32(n)) : r->SetUInt32(m, f, quint32(n));
            return true;
        case pb::FieldDescriptor::CPPTYPE_UINT64:
            if (n < 0)
                return fail(path, QStringLiteral("an unsigned integer"));
            add ? r->AddUInt64(m, f, quint64(n)) : r->SetUInt64(m, f, quint64(n));
            return true;
        default:
            return fail(path, QStringLiteral("a supported value"));
        }
    }

    bool special(Special special, const QJsonValue &v, pb::Message *m, const QString &path)
    {
        const pb::Descriptor *d = m->GetDescriptor();
        const pb::Reflection *r = m->GetReflection();
        auto f = [d](int number) { return d->FindFieldByNumber(number); };
        switch (special) {
        case Special::Time:
        case Special::MicroTime: {
            const auto t = v.isString() ? parseTime(v.toString()) : std::nullopt;
            if (!t)
                return fail(path, QStringLiteral("an RFC 3339 time"));
            r->SetInt64(m, f(1), t->first);
            r->SetInt32(m, f(2), special == Special::MicroTime ? t->second / 1000 * 1000 : 0);
            return true;
        }
        case Special::Duration: {
            const auto ns = v.isString() ? parseGoDuration(v.toString()) : std::nullopt;
            if (!ns)
                return fail(path, QStringLiteral("a duration"));
            r->SetInt64(m, f(1), *ns);
            return true;
        }
        case Special::FieldsV1:
        case Special::RawExtension: {
            QByteArray raw;
            if (v.isObject())
                raw = QJsonDocument(v.toObject()).toJson(QJsonDocument::Compact);
            else if (v.isArray())
                raw = QJsonDocument(v.toArray()).toJson(QJsonDocument::Compact);
            else
                return fail(path, QStringLiteral("an object"));
            r->SetString(m, f(1), raw.toStdString());
            return true;
        }
        case Special::IntOrString:
            if (v.isString()) {
                r->SetInt64(m, f(1), 1);
                r->SetString(m, f(3), toStd(v.toString()));
                return true;
            }
            if (v.isDouble() && std::trunc(v.toDouble()) == v.toDouble() &&
                std::abs(v.toDouble()) <= INT32_MAX) {
                r->SetInt64(m, f(1), 0);
                r->SetInt32(m, f(2), int(v.toDouble()));
                return true;
            }
            return fail(path, QStringLiteral("an integer or a string"));
        case Special::Quantity:
            if (v.isString())
                r->SetString(m, f(1), toStd(v.toString()));
            else if (v.isDouble())
                r->SetString(m, f(1), toStd(QString::number(v.toDouble(), 'g', 17)));
            else
                return fail(path, QStringLiteral("a quantity"));
            return true;
        case Special::StringList: {
            if (!v.isArray())
                return fail(path, QStringLiteral("an array"));
            for (const QJsonValue item : v.toArray()) {
                if (!item.isString())
                    return fail(path, QStringLiteral("an array of strings"));
                r->AddString(m, f(1), toStd(item.toString()));
            }
            return true;
        }
        case Special::None:
            break;
        }
        return false;
    }
};

} // namespace

std::variant<QJsonObject, ProtobufError> decodeProtobufObject(const QByteArray &body)
{
    if (body.size() < qsizetype(sizeof kMagic) ||
        std::memcmp(body.constData(), kMagic, sizeof kMagic) != 0)
        return ProtobufError{
            false, QStringLiteral("not a Kubernetes protobuf body (no \"k8s\\0\" magic prefix)")};
    if (!loaded())
        return ProtobufError{true, QStringLiteral("protobuf bodies are not available")};
    const pb::Descriptor *u = unknownEnvelope();
    const auto envelope = make(u);
    const QByteArrayView rest = QByteArrayView(body).sliced(qsizetype(sizeof kMagic));
    if (!envelope->ParseFromArray(rest.data(), int(rest.size())))
        return ProtobufError{false,
                             QStringLiteral("malformed protobuf body: the envelope does not parse "
                                            "as runtime.Unknown")};
    const pb::Reflection *r = envelope->GetReflection();
    const pb::Message &typeMeta = r->GetMessage(*envelope, u->FindFieldByName("typeMeta"));
    const QString apiVersion =
        fromStd(typeMeta.GetReflection()->GetString(typeMeta, typeMeta.GetDescriptor()->field(0)));
    const QString kind =
        fromStd(typeMeta.GetReflection()->GetString(typeMeta, typeMeta.GetDescriptor()->field(1)));
    if (kind.isEmpty())
        return ProtobufError{false, QStringLiteral("protobuf body without a kind")};
    if (apiVersion.isEmpty())
        return ProtobufError{false, QStringLiteral("protobuf body without an apiVersion")};
    const pb::Descriptor *d = forKind(apiVersion, kind);
    if (!d)
        return ProtobufError{true, QStringLiteral("protobuf bodies of kind %1 (%2) are not "
                                                  "supported; send application/json")
                                       .arg(kind, apiVersion)};
    const std::string raw = r->GetString(*envelope, u->FindFieldByName("raw"));
    const auto object = make(d);
    if (!object->ParseFromString(raw))
        return ProtobufError{false, QStringLiteral("malformed protobuf body: the object does not "
                                                   "parse as %1 (%2)")
                                        .arg(kind, apiVersion)};
    QJsonObject json = messageToJson(*object).toObject();
    // Go's structs: metadata, spec and status are there even when the wire had nothing.
    for (const char *name : {"metadata", "spec", "status"})
        if (d->FindFieldByName(name) && !json.contains(QLatin1String(name)))
            json.insert(QLatin1String(name), QJsonObject());
    json.insert(QStringLiteral("apiVersion"), apiVersion);
    json.insert(QStringLiteral("kind"), kind);
    return json;
}

std::optional<QString> protobufTypeMismatch(const QJsonObject &object, const pb::Descriptor *d)
{
    if (!d || !loaded())
        return std::nullopt;
    const auto message = make(d);
    Filler filler;
    if (filler.message(object, message.get(), QString()))
        return std::nullopt;
    return filler.error;
}

std::variant<QByteArray, ProtobufError> encodeProtobufObject(const QJsonObject &object)
{
    const QString apiVersion = object.value(QLatin1String("apiVersion")).toString();
    const QString kind = object.value(QLatin1String("kind")).toString();
    const pb::Descriptor *d = loaded() ? forKind(apiVersion, kind) : nullptr;
    if (!d)
        return ProtobufError{true,
                             QStringLiteral("%1 (%2) has no protobuf form").arg(kind, apiVersion)};
    const auto message = make(d);
    Filler filler;
    if (!filler.message(object, message.get(), QString()))
        return ProtobufError{false, filler.error};
    const pb::Descriptor *u = unknownEnvelope();
    const auto envelope = make(u);
    const pb::Reflection *r = envelope->GetReflection();
    pb::Message *typeMeta = r->MutableMessage(envelope.get(), u->FindFieldByName("typeMeta"));
    typeMeta->GetReflection()->SetString(typeMeta, typeMeta->GetDescriptor()->field(0),
                                         toStd(apiVersion));
    typeMeta->GetReflection()->SetString(typeMeta, typeMeta->GetDescriptor()->field(1),
                                         toStd(kind));
    r->SetString(envelope.get(), u->FindFieldByName("raw"), message->SerializeAsString());
    r->SetString(envelope.get(), u->FindFieldByName("contentEncoding"), std::string());
    r->SetString(envelope.get(), u->FindFieldByName("contentType"), std::string());
    const std::string bytes = envelope->SerializeAsString();
    return QByteArray(kMagic, sizeof kMagic) + QByteArray(bytes.data(), qsizetype(bytes.size()));
}

std::variant<QByteArray, ProtobufError> encodeProtobufWatchFrame(const QString &type,
                                                                 const QJsonObject &object)
{
    auto body = encodeProtobufObject(object);
    if (const auto *e = std::get_if<ProtobufError>(&body))
        return *e;
    const pb::Descriptor *d =
        pool().FindMessageTypeByName("k8s.io.apimachinery.pkg.apis.meta.v1.WatchEvent");
    if (!d)
        return ProtobufError{true, QStringLiteral("meta.v1.WatchEvent has no protobuf form")};
    const auto event = make(d);
    const pb::Reflection *r = event->GetReflection();
    r->SetString(event.get(), d->FindFieldByName("type"), toStd(type));
    pb::Message *raw = r->MutableMessage(event.get(), d->FindFieldByName("object"));
    const QByteArray &bytes = std::get<QByteArray>(body);
    raw->GetReflection()->SetString(raw, raw->GetDescriptor()->FindFieldByName("raw"),
                                    std::string(bytes.constData(), size_t(bytes.size())));
    const std::string message = event->SerializeAsString();
    const quint32 n = quint32(message.size());
    QByteArray frame;
    frame.reserve(4 + qsizetype(message.size()));
    for (int shift = 24; shift >= 0; shift -= 8)
        frame.append(char((n >> shift) & 0xff));
    frame.append(message.data(), qsizetype(message.size()));
    return frame;
}

} // namespace Gatehouse::Cluster
