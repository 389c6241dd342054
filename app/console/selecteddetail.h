#pragma once

#include "adminclient.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>

#include <functional>

namespace Gatehouse::Console {

// What the order and delivery details share: one selected object read from the admin API,
// its loading, busy and error state, and the rules that keep it right while events arrive:
// a reload asked for while one is under way runs once more after it (that answer may predate
// the change), and answers for an earlier selection are dropped. Subclasses name it qualified
// (`public Gatehouse::Console::SelectedDetail`): qmltyperegistrar finds the prototype by that
// name, and qmllint knows the inherited properties only then.
class SelectedDetail : public QObject
{
    Q_OBJECT
    Q_PROPERTY(bool loading READ loading NOTIFY loadingChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged) // an action runs
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)

public:
    bool loading() const { return m_loading; }
    bool busy() const { return m_busy; }
    QString error() const { return m_error; }

    Q_INVOKABLE void reload();
    Q_INVOKABLE void clearError() { setError(QString()); }

    // The language changed: every text did (they are made when read).
    void retranslate() { emit changed(); }

signals:
    void loadingChanged();
    void busyChanged();
    void errorChanged();
    void changed();

protected:
    explicit SelectedDetail(AdminClient *client, QObject *parent);

    // The admin API path of the selected object; empty when nothing is selected.
    virtual QString detailPath() const = 0;
    // Its answer, for the current selection.
    virtual void apply(const QJsonObject &detail) = 0;

    // Another object is selected: answers under way are dropped, the error cleared.
    void selectionChanged();
    // An action on the selected object (POST `path`): busy meanwhile; its error is shown while
    // the object is still selected. `done` gets the answer and whether it still is.
    void runAction(const QString &path,
                   std::function<void(const QJsonObject &answer, bool stillSelected)> done);
    void setError(const QString &error);

    QPointer<AdminClient> m_client;

private:
    void setLoading(bool loading);
    void setBusy(bool busy);

    quint64 m_generation = 0; // counts selections; answers for an earlier one are dropped
    bool m_loading = false;
    bool m_reloadAgain = false;
    bool m_busy = false;
    QString m_error;
};

} // namespace Gatehouse::Console
