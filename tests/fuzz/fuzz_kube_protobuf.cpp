// The cluster API's Kubernetes protobuf bodies (kubectl's typed commands, auth can-i, auth
// whoami): the "k8s\0" envelope decoded through libprotobuf to JSON, and JSON encoded back.
// Properties: nothing crashes; an error says why; what decodes has a type and metadata; and
// what decodes encodes (as the server answers) and decodes again to the same JSON.
#include "cluster/protobuf.h"

#include "fuzzassert.h"

#include <cstddef>
#include <cstdint>

using namespace Gatehouse::Cluster;

namespace {

QByteArray magic()
{
    return QByteArray("k8s\0", 4);
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
    const QJsonObject &object = std::get<QJsonObject>(result);
    FUZZ_ASSERT(!object.value(QStringLiteral("apiVersion")).toString().isEmpty() &&
                    !object.value(QStringLiteral("kind")).toString().isEmpty(),
                "a decoded object has a type");
    FUZZ_ASSERT(object.value(QStringLiteral("metadata")).isObject() ||
                    object.value(QStringLiteral("kind")).toString() ==
                        QLatin1String("DeleteOptions"),
                "metadata is always there");

    const auto encoded = encodeProtobufObject(object);
    if (const auto *error = std::get_if<ProtobufError>(&encoded)) {
        std::fprintf(stderr, "%s\n", qPrintable(error->message));
        FUZZ_ASSERT(false, "what decodes encodes");
    }
    const auto second = decodeProtobufObject(std::get<QByteArray>(encoded));
    FUZZ_ASSERT(std::holds_alternative<QJsonObject>(second), "an encoded object decodes");
    FUZZ_ASSERT(std::get<QJsonObject>(second) == object, "decoding is stable under re-encoding");
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
