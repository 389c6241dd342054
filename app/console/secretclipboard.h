#pragma once

#include <QString>

#include <chrono>

namespace Gatehouse::Console {

// How long a copied secret (a client secret, a webhook secret, a minted token) stays on the
// clipboard: long enough to paste it, short enough that it is not still there an hour later
// for whatever reads the clipboard next. KeePassXC clears after 10 s, 1Password after 90 s.
inline constexpr std::chrono::milliseconds kSecretClipboardLifetime{std::chrono::seconds(45)};

// Puts a secret on the clipboard, marked so that clipboard managers and clipboard history
// leave it out (KDE's x-kde-passwordManagerHint, Windows' ExcludeClipboardContentFromMonitor-
// Processing / CanIncludeInClipboardHistory / CanUploadToCloudClipboard formats), and takes it
// off again after the lifetime unless something else was copied meanwhile. Only a hash of the
// secret is kept for that check.
void copySecretToClipboard(const QString &secret);

// Something that is not a secret (a client id): copied as plain text and left there.
void copyToClipboard(const QString &text);

// For the tests: the lifetime of the next copies (kSecretClipboardLifetime by default).
void setSecretClipboardLifetime(std::chrono::milliseconds lifetime);

} // namespace Gatehouse::Console
