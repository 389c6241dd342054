// LeakSanitizer's check before the process exits, at a point the test chooses.
//
// LeakSanitizer checks at exit, after every static object has been destroyed. Qt Quick's
// pixmap store lets go of the images it still holds when the QGuiApplication goes, so at exit
// they are unreachable, and their stacks start deep inside Qt (Debian's Qt has no frame
// pointers: ASan's fast unwinder cannot walk them, and a suppression by Qt's own frames needs
// its slow unwinder, which cost tst_qml four fifths of its CPU). tst_qml checks after its last
// test file instead: every engine, and what the console made in it, is gone; the application
// and the test's own setup object are still there and hold what they own. Objects waiting for
// deleteLater() are deleted first. A leak found here ends the process with LeakSanitizer's
// report and exit code; the check at exit does not run again, so whatever becomes unreachable
// only after this point (the application's own teardown) is not checked. Without ASan this does
// nothing.

#pragma once

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GATEHOUSE_TEST_LSAN 1
#endif
#endif
#if !defined(GATEHOUSE_TEST_LSAN) && defined(__SANITIZE_ADDRESS__)
#define GATEHOUSE_TEST_LSAN 1
#endif

#include <QCoreApplication>
#include <QEvent>

#ifdef GATEHOUSE_TEST_LSAN
#include <sanitizer/lsan_interface.h>
#endif

namespace Gatehouse::Test {

inline void checkLeaksNow()
{
    QCoreApplication::sendPostedEvents(nullptr, QEvent::DeferredDelete);
#ifdef GATEHOUSE_TEST_LSAN
    __lsan_do_leak_check();
#endif
}

} // namespace Gatehouse::Test
