#include "kubeconfigform.h"
#include "fields.h"

#include "orderstatus.h"
#include "platform/platform.h"

#include <QDir>
#include <QJsonArray>

namespace Gatehouse::Console {

KubeconfigForm::KubeconfigForm(AdminClient *client, QObject *parent)
    : QObject(parent), m_client(client)
{}

bool KubeconfigForm::writePrivateFile(const QString &path, const QByteArray &bytes, QString *error)
{
    // Owner-only from its first byte (0600; an owner-only ACL on Windows), replaced atomically.
    if (auto r = Platform::writePrivateFile(path, bytes); !r) {
        *error = r.error().message.section(QStringLiteral(": "), -1); // the reason; path said
        return false;
    }
    return true;
}

void KubeconfigForm::setKind(const QString &kind)
{
    if (m_kind == kind)
        return;
    m_kind = kind;
    emit inputChanged();
}

void KubeconfigForm::setName(const QString &name)
{
    if (m_name == name)
        return;
    m_name = name;
    emit inputChanged();
}

void KubeconfigForm::setGroups(const QString &groups)
{
    if (m_groups == groups)
        return;
    m_groups = groups;
    emit inputChanged();
}

QString KubeconfigForm::nameError() const
{
    const QString name = m_name.trimmed();
    if (name.isEmpty())
        return m_attempted ? tr("Give a name.") : QString();
    if (m_kind == QLatin1String("node") && name.startsWith(QLatin1String("system:")))
        return tr("Give the node's name (node-1); the user becomes system:node:node-1.");
    return {};
}

QUrl KubeconfigForm::suggestedFile() const
{
    QString base = m_user.isEmpty() ? m_name.trimmed() : m_user;
    base.replace(QLatin1Char(':'), QLatin1Char('-')).replace(QLatin1Char('/'), QLatin1Char('-'));
    if (base.isEmpty())
        base = QStringLiteral("gatehouse");
    return QUrl::fromLocalFile(QDir::home().filePath(base + QStringLiteral(".kubeconfig")));
}

QJsonObject KubeconfigForm::requestBody() const
{
    return {{QStringLiteral("kind"), m_kind},
            {QStringLiteral("name"), m_name.trimmed()},
            {QStringLiteral("groups"), QJsonArray::fromStringList(groupList(m_groups))}};
}

void KubeconfigForm::issue()
{
    if (m_busy || !m_client)
        return;
    m_attempted = true;
    emit inputChanged();
    if (m_name.trimmed().isEmpty() || !nameError().isEmpty())
        return;
    m_busy = true;
    m_error.clear();
    emit resultChanged();
    m_client->callApi(
        {"POST", QStringLiteral("/cluster/kubeconfigs"), {}, requestBody()}, this,
        [this](const ApiResult &result) {
            m_busy = false;
            if (result.ok()) {
                const QJsonObject answer = result.object();
                m_kubeconfig = answer.value(QLatin1String("kubeconfig")).toString().toUtf8();
                m_redacted = answer.value(QLatin1String("redacted")).toString();
                m_user = answer.value(QLatin1String("user")).toString();
                m_issuedGroups.clear();
                for (const QJsonValue g : answer.value(QLatin1String("groups")).toArray())
                    m_issuedGroups.append(g.toString());
                m_expiresAt = answer.value(QLatin1String("expiresAt"));
                setSaved(QString(), QString());
            } else if (!result.canceled) {
                m_error = result.errorMessage;
            }
            emit resultChanged();
        });
}

QString KubeconfigForm::summary() const
{
    if (m_user.isEmpty())
        return {};
    const QString expires = ConsoleFormat::time(m_expiresAt);
    return m_issuedGroups.isEmpty()
               ? tr("%1 · no groups · expires %2").arg(m_user, expires)
               : tr("%1 · groups %2 · expires %3")
                     .arg(m_user, m_issuedGroups.join(QStringLiteral(", ")), expires);
}

void KubeconfigForm::retranslate()
{
    emit inputChanged(); // nameError()
    emit resultChanged();
}

bool KubeconfigForm::saveTo(const QUrl &file)
{
    if (m_kubeconfig.isEmpty())
        return false;
    const QString path = file.isLocalFile() ? file.toLocalFile() : file.toString();
    if (path.isEmpty()) {
        setSaved(QString(), tr("Choose a file."));
        return false;
    }
    QString error;
    if (!writePrivateFile(path, m_kubeconfig, &error)) {
        setSaved(QString(),
                 tr("Could not write %1: %2").arg(QDir::toNativeSeparators(path), error));
        return false;
    }
    setSaved(QDir::toNativeSeparators(path), QString());
    return true;
}

void KubeconfigForm::forget()
{
    m_kubeconfig.clear();
    m_redacted.clear();
    m_user.clear();
    m_issuedGroups.clear();
    m_expiresAt = QJsonValue();
    m_error.clear();
    m_attempted = false;
    m_name.clear();
    m_groups.clear();
    m_kind = QStringLiteral("user");
    setSaved(QString(), QString());
    emit inputChanged();
    emit resultChanged();
}

void KubeconfigForm::setSaved(const QString &path, const QString &error)
{
    if (m_savedPath == path && m_saveError == error)
        return;
    m_savedPath = path;
    m_saveError = error;
    emit savedChanged();
}

} // namespace Gatehouse::Console
