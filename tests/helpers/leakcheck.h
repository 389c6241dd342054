// LeakSanitizer's check at the end of a test's main(), before the process exits.
//
// LeakSanitizer checks at exit, after every static object has been destroyed. Qt Quick's
// pixmap store lets go of the images it still holds during that destruction, so at exit they
// are unreachable, and their stacks start deep inside Qt (Debian's Qt has no frame pointers:
// ASan's fast unwinder cannot walk them, and a suppression by Qt's own frames needs its slow
// unwinder, which cost tst_qml four fifths of its CPU). Checking once the test's own objects
// and the QGuiApplication are gone, while static objects still hold what they own, finds every
// allocation the test and the console leaked, and not what Qt lets go of by design at exit.
// A leak found here ends the process with LeakSanitizer's report and exit code; the check at
// exit is then not run again. Without ASan this does nothing.

#pragma once

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GATEHOUSE_TEST_LSAN 1
#endif
#endif
#if !defined(GATEHOUSE_TEST_LSAN) && defined(__SANITIZE_ADDRESS__)
#define GATEHOUSE_TEST_LSAN 1
#endif

#ifdef GATEHOUSE_TEST_LSAN
#include <sanitizer/lsan_interface.h>
#endif

namespace Gatehouse::Test {

inline void checkLeaksNow()
{
#ifdef GATEHOUSE_TEST_LSAN
    __lsan_do_leak_check();
#endif
}

} // namespace Gatehouse::Test
