#include "integration/tst_integration.h"

#include <QCoreApplication>
#include <QtTest>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    int status = 0;
    {
        TestHttpServer t;
        status |= QTest::qExec(&t, argc, argv);
    }
    {
        TestOrders t;
        status |= QTest::qExec(&t, argc, argv);
    }
    {
        TestOAuthRetention t;
        status |= QTest::qExec(&t, argc, argv);
    }
    {
        TestOAuthClients t;
        status |= QTest::qExec(&t, argc, argv);
    }
    {
        TestHeadlessBackend t;
        status |= QTest::qExec(&t, argc, argv);
    }
    return status;
}
