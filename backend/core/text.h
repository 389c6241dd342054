#pragma once

#include <QChar>
#include <QString>

namespace Gatehouse::Core {

// A bidirectional formatting character (U+061C, U+200E/F, U+202A–E, U+2066–9): it reorders
// what a reader sees ("gnp.exe" after U+202E reads "exe.png").
bool isBidiControl(QChar c);

// What a client names things with, stored as sent and shown to people: valid Unicode (SQLite
// stores a lone surrogate as another character, so a replay or a uniqueness check would see
// other text) and no control characters; with `noBidi`, no bidirectional controls either.
// Empty when fine, else what is wrong ("must not contain control characters").
QString textProblem(const QString &s, bool noBidi = false);

} // namespace Gatehouse::Core
