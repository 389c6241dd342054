#pragma once

#include "adminclient.h"

#include <QJsonValue>
#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QUrl>

namespace Gatehouse::Console {

// The "Kubeconfig…" dialog's state: issues a client certificate for a user or a node agent
// (POST /admin/v1/cluster/kubeconfigs) and shows the redacted kubeconfig. The real one (with
// the private key) is never handed to QML: saveTo() writes it to a file readable by its owner
// only, and forget() drops it when the dialog closes.
class KubeconfigForm : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QString kind READ kind WRITE setKind NOTIFY inputChanged) // "user", "node"
    // The user name, or the node's name for a node agent (node-1, not system:node:node-1).
    Q_PROPERTY(QString name READ name WRITE setName NOTIFY inputChanged)
    Q_PROPERTY(QString groups READ groups WRITE setGroups NOTIFY inputChanged) // comma-separated
    // What is wrong with the name (translated); "" when nothing is.
    Q_PROPERTY(QString nameError READ nameError NOTIFY inputChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY resultChanged)
    // The server's refusal as it wrote it (never translated); "" when none.
    Q_PROPERTY(QString error READ error NOTIFY resultChanged)
    Q_PROPERTY(bool issued READ issued NOTIFY resultChanged)
    // The kubeconfig with every secret as DATA+OMITTED.
    Q_PROPERTY(QString redacted READ redacted NOTIFY resultChanged)
    // "system:node:node-1 · groups system:nodes · expires 2027-11-21"
    Q_PROPERTY(QString summary READ summary NOTIFY resultChanged)
    // Where the save dialog starts: <home>/<user>.kubeconfig.
    Q_PROPERTY(QUrl suggestedFile READ suggestedFile NOTIFY resultChanged)
    Q_PROPERTY(QString savedPath READ savedPath NOTIFY savedChanged)
    Q_PROPERTY(QString saveError READ saveError NOTIFY savedChanged)

public:
    explicit KubeconfigForm(AdminClient *client, QObject *parent = nullptr);

    // Writes bytes to path, readable and writable by the owner only (0600), replacing the file
    // atomically; the mode is set before any byte is written. On failure error says why.
    static bool writePrivateFile(const QString &path, const QByteArray &bytes, QString *error);

    QString kind() const { return m_kind; }
    void setKind(const QString &kind);
    QString name() const { return m_name; }
    void setName(const QString &name);
    QString groups() const { return m_groups; }
    void setGroups(const QString &groups);
    QString nameError() const;
    bool busy() const { return m_busy; }
    QString error() const { return m_error; }
    bool issued() const { return !m_kubeconfig.isEmpty(); }
    QString redacted() const { return m_redacted; }
    QString summary() const;
    QUrl suggestedFile() const;
    QString savedPath() const { return m_savedPath; }
    QString saveError() const { return m_saveError; }

    // What issue() posts.
    QJsonObject requestBody() const;
    Q_INVOKABLE void issue();
    // Saves the issued kubeconfig (a local file URL, as a file dialog gives it).
    Q_INVOKABLE bool saveTo(const QUrl &file);
    // Drops the issued kubeconfig and the input (the dialog closed).
    Q_INVOKABLE void forget();
    // The language changed: the summary and the messages did.
    void retranslate();

signals:
    void inputChanged();
    void resultChanged();
    void savedChanged();

private:
    void setSaved(const QString &path, const QString &error);

    QPointer<AdminClient> m_client;
    QString m_kind = QStringLiteral("user");
    QString m_name;
    QString m_groups;
    bool m_attempted = false;
    bool m_busy = false;
    QString m_error;
    QByteArray m_kubeconfig; // the secret one; never logged, never shown
    QString m_redacted;
    QString m_user;
    QStringList m_issuedGroups;
    QJsonValue m_expiresAt;
    QString m_savedPath;
    QString m_saveError;
};

} // namespace Gatehouse::Console
