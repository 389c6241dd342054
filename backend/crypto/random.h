#pragma once

#include <QByteArray>
#include <QString>

// Randomness from the OpenSSL CSPRNG. A failing CSPRNG aborts the process (qFatal)
// rather than hand out predictable bytes: fail closed.
namespace Gatehouse::Crypto::Random {

// n random bytes; empty for n <= 0. Draws of up to 64 bytes come from a per-thread buffer
// that RAND_bytes fills 4 KiB at a time (random.cpp says why and how it stays safe).
QByteArray bytes(int n);

// nBytes random bytes, base64url without padding (RFC 4648 section 5): an opaque
// token for URLs and headers. 32 bytes give 43 characters.
QString token(int nBytes = 32);

// The same for an identifier that people pass on a command line (a client_id, a key id): it
// never begins with '-', which a command line would take for an option (about one token in
// 64 does; such a draw is replaced by a new one).
QString identifier(int nBytes);

// Frees OpenSSL's per-thread state (its DRBGs) and wipes this thread's buffer of random
// bytes; the next use creates them again. Each thread of the backend calls it as it ends
// (Core::ThreadState, set by the backend).
void releaseThreadState();

// A version 4 UUID (RFC 4122 section 4.4) in canonical lower-case form, no braces.
QString uuid();

// A version 7 UUID (RFC 9562 section 5.7): the millisecond Unix time msSinceEpoch, then
// random bits. Ids made this way sort by creation time, which keeps B-tree inserts local.
QString uuidV7(qint64 msSinceEpoch);

} // namespace Gatehouse::Crypto::Random
