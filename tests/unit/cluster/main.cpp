#include <QCoreApplication>

// One executable for the cluster module's units; each file runs its own test classes.
int runPatchTests(int argc, char **argv);
int runProtobufTests(int argc, char **argv);
int runClusterCoreTests(int argc, char **argv);
int runOpenApiTests(int argc, char **argv);
int runWatchTests(int argc, char **argv);
int runAdmissionWebhookTests(int argc, char **argv);
int runServerSideApplyTests(int argc, char **argv);
int runSharedObjectTests(int argc, char **argv);

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    // GATEHOUSE_TEST_ONLY=<name>: that file's tests alone (tst_cluster_postgres).
    const QByteArray only = qgetenv("GATEHOUSE_TEST_ONLY");
    const std::pair<const char *, int (*)(int, char **)> runs[] = {
        {"patch", runPatchTests},
        {"protobuf", runProtobufTests},
        {"clustercore", runClusterCoreTests},
        {"openapi", runOpenApiTests},
        {"watch", runWatchTests},
        {"admissionwebhooks", runAdmissionWebhookTests},
        {"serversideapply", runServerSideApplyTests},
        {"sharedobjects", runSharedObjectTests},
    };
    int status = 0;
    bool ran = false;
    for (const auto &[name, run] : runs) {
        if (!only.isEmpty() && only != name)
            continue;
        ran = true;
        status |= run(argc, argv);
    }
    if (!ran) {
        qCritical("GATEHOUSE_TEST_ONLY=%s names no test file", only.constData());
        return 1;
    }
    return status;
}
