// The cluster API's decoder of Kubernetes protobuf bodies (kubectl auth can-i, auth whoami):
// the "k8s\0" envelope, the review kinds it decodes to JSON, and everything else refused.
#include "cluster/protobuf.h"

#include "fuzzassert.h"

#include <QHash>
#include <QJsonArray>

#include <cstddef>
#include <cstdint>

using namespace Gatehouse::Cluster;

namespace {

QByteArray magic()
{
    return QByteArray("k8s\0", 4);
}

QByteArray varint(quint64 value)
{
    QByteArray out;
    do {
        char byte = char(value & 0x7fU);
        value >>= 7;
        if (value != 0)
            byte = char(uchar(byte) | 0x80U);
        out += byte;
    } while (value != 0);
    return out;
}

QByteArray lengthDelimited(int field, const QByteArray &contents)
{
    return varint((quint64(field) << 3) | 2U) + varint(quint64(contents.size())) + contents;
}

// The field number of a JSON member, by the name of the object holding it ("" for the
// top level); 0 for a member the decoder should never produce.
int fieldNumber(const QString &object, const QString &member)
{
    static const QHash<QString, QHash<QString, int>> numbers = {
        {QString(), {{"metadata", 1}, {"spec", 2}, {"status", 3}}},
        {"metadata",
         {{"name", 1},
          {"generateName", 2},
          {"namespace", 3},
          {"uid", 5},
          {"labels", 11},
          {"annotations", 12}}},
        {"spec",
         {{"resourceAttributes", 1},
          {"nonResourceAttributes", 2},
          {"user", 3},
          {"groups", 4},
          {"extra", 5},
          {"uid", 6},
          {"namespace", 1}}},
        {"resourceAttributes",
         {{"namespace", 1},
          {"verb", 2},
          {"group", 3},
          {"version", 4},
          {"resource", 5},
          {"subresource", 6},
          {"name", 7},
          {"fieldSelector", 8},
          {"labelSelector", 9}}},
        {"nonResourceAttributes", {{"path", 1}, {"verb", 2}}},
        {"fieldSelector", {{"rawSelector", 1}}},
        {"labelSelector", {{"rawSelector", 1}}},
        {"status", {{"allowed", 1}, {"reason", 2}, {"evaluationError", 3}, {"denied", 4}}},
    };
    return numbers.value(object).value(member);
}

// Encodes a decoded JSON object back to protobuf.
QByteArray encode(const QString &name, const QJsonObject &object)
{
    QByteArray out;
    for (auto it = object.begin(); it != object.end(); ++it) {
        const int field = fieldNumber(name, it.key());
        FUZZ_ASSERT(field > 0, "only known members are decoded");
        const QJsonValue value = it.value();
        if (value.isString()) {
            FUZZ_ASSERT(!value.toString().isEmpty(), "empty strings are omitted");
            out += lengthDelimited(field, value.toString().toUtf8());
        } else if (value.isBool()) {
            FUZZ_ASSERT(value.toBool(), "false is omitted");
            out += varint(quint64(field) << 3) + '\x01';
        } else if (value.isArray()) {
            FUZZ_ASSERT(!value.toArray().isEmpty(), "empty lists are omitted");
            for (const QJsonValue item : value.toArray()) {
                FUZZ_ASSERT(item.isString(), "lists are lists of strings");
                out += lengthDelimited(field, item.toString().toUtf8());
            }
        } else if (it.key() == QLatin1String("extra")) {
            const QJsonObject map = value.toObject();
            FUZZ_ASSERT(!map.isEmpty(), "empty maps are omitted");
            for (auto entry = map.begin(); entry != map.end(); ++entry) {
                FUZZ_ASSERT(entry.value().isArray(), "extra values are lists");
                QByteArray items;
                for (const QJsonValue item : entry.value().toArray())
                    items += lengthDelimited(1, item.toString().toUtf8());
                out += lengthDelimited(field, lengthDelimited(1, entry.key().toUtf8()) +
                                                  lengthDelimited(2, items));
            }
        } else if (it.key() == QLatin1String("labels") ||
                   it.key() == QLatin1String("annotations")) {
            const QJsonObject map = value.toObject();
            FUZZ_ASSERT(!map.isEmpty(), "empty maps are omitted");
            for (auto entry = map.begin(); entry != map.end(); ++entry) {
                FUZZ_ASSERT(entry.value().isString(), "label and annotation values are strings");
                out += lengthDelimited(field,
                                       lengthDelimited(1, entry.key().toUtf8()) +
                                           lengthDelimited(2, entry.value().toString().toUtf8()));
            }
        } else {
            FUZZ_ASSERT(value.isObject(), "members are strings, booleans, lists or objects");
            out += lengthDelimited(field, encode(it.key(), value.toObject()));
        }
    }
    return out;
}

void check(const QByteArray &input)
{
    const auto result = decodeProtobufObject(input);
    if (const auto *error = std::get_if<ProtobufError>(&result)) {
        FUZZ_ASSERT(!error->message.isEmpty(), "an error says why");
        FUZZ_ASSERT(!error->unsupportedKind || input.startsWith(magic()),
                    "only an envelope can name an unsupported kind");
        return;
    }
    FUZZ_ASSERT(input.startsWith(magic()), "only bodies with the magic decode");
    QJsonObject object = std::get<QJsonObject>(result);
    const QString apiVersion = object.take(QStringLiteral("apiVersion")).toString();
    const QString kind = object.take(QStringLiteral("kind")).toString();
    FUZZ_ASSERT(!apiVersion.isEmpty() && !kind.isEmpty(), "a decoded object has a type");
    FUZZ_ASSERT(object.value(QStringLiteral("metadata")).isObject(), "metadata is always there");

    // What decoded re-encodes (as kubectl would) and decodes to the same object.
    const QByteArray again = magic() +
                             lengthDelimited(1, lengthDelimited(1, apiVersion.toUtf8()) +
                                                    lengthDelimited(2, kind.toUtf8())) +
                             lengthDelimited(2, encode(QString(), object));
    const auto second = decodeProtobufObject(again);
    FUZZ_ASSERT(std::holds_alternative<QJsonObject>(second), "a re-encoded object decodes");
    FUZZ_ASSERT(std::get<QJsonObject>(second) == std::get<QJsonObject>(result),
                "decoding is stable under re-encoding");
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QByteArray input(reinterpret_cast<const char *>(data), qsizetype(size));
    check(input);
    // The same bytes as an envelope's contents, so that mutations need not keep the magic.
    if (!input.startsWith(magic()))
        check(magic() + input);
    return 0;
}
