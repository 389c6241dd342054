#include <QCoreApplication>

// One executable for the cluster module's units; each file runs its own test classes.
int runPatchTests(int argc, char **argv);
int runProtobufTests(int argc, char **argv);
int runClusterCoreTests(int argc, char **argv);
int runOpenApiTests(int argc, char **argv);
int runWatchTests(int argc, char **argv);
int runAdmissionWebhookTests(int argc, char **argv);
int runServerSideApplyTests(int argc, char **argv);

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int status = 0;
    status |= runPatchTests(argc, argv);
    status |= runProtobufTests(argc, argv);
    status |= runClusterCoreTests(argc, argv);
    status |= runOpenApiTests(argc, argv);
    status |= runWatchTests(argc, argv);
    status |= runAdmissionWebhookTests(argc, argv);
    status |= runServerSideApplyTests(argc, argv);
    return status;
}
