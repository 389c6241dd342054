// What an admission webhook answers (backend/cluster/admissionwebhooks.cpp): the operator's own
// service, but one that may be broken, half-upgraded or compromised. Properties: nothing
// crashes; an answer is allowed, denied with a 4xx/5xx Status in kube's words, or a failed call
// that failurePolicy decides; only an allowed mutating webhook's answer carries a patch; at
// most ten warnings, none with a control character.
#include "cluster/admissionwebhooks.h"

#include "fuzzassert.h"

#include <cstddef>
#include <cstdint>

using namespace Gatehouse::Cluster;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const QByteArray body(reinterpret_cast<const char *>(data) + 1, qsizetype(size - 1));
    AdmissionWebhook w;
    w.name = QStringLiteral("w.example.com");
    w.url = QStringLiteral("https://127.0.0.1:8443/");
    w.mutating = data[0] & 1;
    w.failOpen = data[0] & 2;
    const WebhookAnswer a = WebhookCaller::interpret(w, QStringLiteral("u"), 200, body);
    FUZZ_ASSERT(!a.ignored || (a.callFailed && a.allowed), "only a failed call is ignored");
    if (a.callFailed) {
        FUZZ_ASSERT(a.error.startsWith(QLatin1String("failed calling webhook \"w.example.com\": ")),
                    "a failed call says which webhook and why");
        FUZZ_ASSERT(a.allowed == w.failOpen, "failurePolicy decides a failed call");
    }
    if (!a.allowed) {
        FUZZ_ASSERT(a.status.code >= 400 && a.status.code <= 599, "a refusal is a 4xx or 5xx");
        FUZZ_ASSERT(a.status.message.startsWith(
                        QLatin1String("admission webhook \"w.example.com\" denied the request")) ||
                        a.status.message.startsWith(
                            QLatin1String("Internal error occurred: failed calling webhook")),
                    "a refusal is in kube's words");
        FUZZ_ASSERT(a.patch.isEmpty(), "a refusal carries no patch");
    }
    FUZZ_ASSERT(a.patch.isEmpty() || w.mutating, "only a mutating webhook patches");
    FUZZ_ASSERT(a.warnings.size() <= 10, "at most ten warnings");
    for (const QString &warning : a.warnings)
        for (const QChar c : warning)
            FUZZ_ASSERT(c.unicode() >= 0x20 && c.unicode() != 0x7f, "no control characters");
    return 0;
}
