// The cluster API's parsers of client input besides protobuf: the three patch formats applied
// to a stored node, label and field selectors, and RequestInfo from a path and query.
#include "cluster/patch.h"
#include "cluster/requestinfo.h"
#include "cluster/selector.h"
#include "cluster/strictjson.h"

#include "fuzzassert.h"

#include <QJsonDocument>
#include <QUrl>
#include <QUrlQuery>

#include <cstddef>
#include <cstdint>

using namespace Gatehouse::Cluster;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const QByteArray input(reinterpret_cast<const char *>(data + 1), qsizetype(size - 1));
    static const QJsonObject node =
        QJsonDocument::fromJson(
            R"({"metadata":{"name":"n1","labels":{"a":"1"},"finalizers":["x"]},)"
            R"("spec":{"taints":[{"key":"k","effect":"NoSchedule"}]},)"
            R"("status":{"conditions":[{"type":"Ready","status":"True"}]}})")
            .object();
    switch (data[0] % 4) {
    case 0:
    case 1:
    case 2: {
        const PatchType type = data[0] % 4 == 0   ? PatchType::Merge
                               : data[0] % 4 == 1 ? PatchType::StrategicMerge
                                                  : PatchType::Json;
        auto r = applyPatch(type, node, input);
        // The strict decoder's duplicate members: each is a quoted name of the text.
        FUZZ_ASSERT(duplicateJsonFields(input).size() <= input.count('"') / 2,
                    "a duplicate member is a name in the text");
        if (const auto *e = std::get_if<PatchError>(&r)) {
            FUZZ_ASSERT(e->status == 400 || e->status == 413 || e->status == 422,
                        "patch errors are 400, 413 or 422");
            FUZZ_ASSERT(!e->message.isEmpty(), "patch errors say why");
            FUZZ_ASSERT(!e->message.contains(QLatin1Char('\n')), "one line");
        }
        break;
    }
    default: {
        const QString text = QString::fromUtf8(input);
        QString error;
        const auto labels = Selector::parseLabels(text, &error);
        FUZZ_ASSERT(labels.has_value() || !error.isEmpty(), "a refused selector says why");
        if (labels)
            (void)labels->matchesLabels(node);
        error.clear();
        const auto fields = Selector::parseFields(text, {QStringLiteral("spec.nodeName")}, &error);
        FUZZ_ASSERT(fields.has_value() || !error.isEmpty(), "a refused selector says why");
        const QUrl url(QStringLiteral("https://h") + text);
        const RequestInfo info = RequestInfo::parse(QByteArray("GET"), url.path(), QUrlQuery(url));
        FUZZ_ASSERT(!info.verb.isEmpty(), "every request has a verb");
        FUZZ_ASSERT(!info.isResourceRequest || !info.apiVersion.isEmpty(),
                    "a resource request names its version");
        break;
    }
    }
    return 0;
}
