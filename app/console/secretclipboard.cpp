#include "secretclipboard.h"

#include <QClipboard>
#include <QCryptographicHash>
#include <QGuiApplication>
#include <QMimeData>
#include <QTimer>

namespace Gatehouse::Console {

namespace {

std::chrono::milliseconds g_lifetime = kSecretClipboardLifetime;
// Which copy the pending clear belongs to: a later copy makes an earlier timer do nothing.
quint64 g_generation = 0;

QByteArray digest(const QString &text)
{
    return QCryptographicHash::hash(text.toUtf8(), QCryptographicHash::Sha256);
}

// Qt passes a MIME type of this form to Windows as the clipboard format of that name; on
// other platforms it is an unknown type that nothing reads.
QString windowsFormat(const char *name)
{
    return QStringLiteral("application/x-qt-windows-mime;value=\"%1\"").arg(QLatin1String(name));
}

} // namespace

void copySecretToClipboard(const QString &secret)
{
    QClipboard *clipboard = QGuiApplication::clipboard();
    if (!clipboard)
        return;
    auto *data = new QMimeData;
    data->setText(secret);
    data->setData(QStringLiteral("x-kde-passwordManagerHint"), QByteArrayLiteral("secret"));
    const QByteArray zero(4, '\0'); // a DWORD 0: "no"
    data->setData(windowsFormat("ExcludeClipboardContentFromMonitorProcessing"), zero);
    data->setData(windowsFormat("CanIncludeInClipboardHistory"), zero);
    data->setData(windowsFormat("CanUploadToCloudClipboard"), zero);
    clipboard->setMimeData(data); // the clipboard owns it
    const quint64 generation = ++g_generation;
    QTimer::singleShot(g_lifetime, clipboard, [clipboard, generation, hash = digest(secret)] {
        if (generation != g_generation)
            return;
        // Cleared only while it still holds this secret: what the user copied since stays.
        if (digest(clipboard->text()) == hash)
            clipboard->clear();
    });
}

void copyToClipboard(const QString &text)
{
    if (QClipboard *clipboard = QGuiApplication::clipboard()) {
        ++g_generation;
        clipboard->setText(text);
    }
}

void setSecretClipboardLifetime(std::chrono::milliseconds lifetime)
{
    g_lifetime = lifetime;
}

} // namespace Gatehouse::Console
