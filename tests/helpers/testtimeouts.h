// The one upper bound for every wait in the tests: QTRY_* in the C++ suites, tryCompare() and
// tryVerify() in the QML suites (tst_qml publishes it as Wait.ms) and waitFor() in the e2e
// suites (tests/e2e/lib/backend.mjs reads the same variable).
//
// A wait ends as soon as the event it waits for is there; the bound is only for a real hang, so
// it is generous: GATEHOUSE_TEST_TIMEOUT_MS milliseconds, 60000 when the variable is not set.
// A test that proves that something does NOT happen waits for the event that would come first,
// then a short, commented settle time; it never uses this bound.

#pragma once

#include <QtGlobal>

namespace Gatehouse::Test {

inline constexpr int DefaultTimeoutMs = 60000;

inline int timeoutMs()
{
    static const int value = [] {
        bool ok = false;
        const int ms = qEnvironmentVariableIntValue("GATEHOUSE_TEST_TIMEOUT_MS", &ok);
        return ok && ms > 0 ? ms : DefaultTimeoutMs;
    }();
    return value;
}

} // namespace Gatehouse::Test
