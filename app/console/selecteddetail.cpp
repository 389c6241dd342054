#include "selecteddetail.h"

#include <utility>

namespace Gatehouse::Console {

SelectedDetail::SelectedDetail(AdminClient *client, QObject *parent)
    : QObject(parent), m_client(client)
{
    if (!client)
        return;
    connect(client, &AdminClient::connectionStateChanged, this, [this] {
        if (m_client && m_client->connectionState() == AdminClient::Online)
            reload();
    });
}

void SelectedDetail::selectionChanged()
{
    ++m_generation;
    m_reloadAgain = false;
    setLoading(false);
    setError(QString());
}

void SelectedDetail::reload()
{
    const QString path = detailPath();
    if (path.isEmpty() || !m_client)
        return;
    if (m_loading) {
        m_reloadAgain = true;
        return;
    }
    const quint64 generation = m_generation;
    setLoading(true);
    m_client->callApi({"GET", path, {}, {}}, this, [this, generation](const ApiResult &result) {
        if (generation != m_generation)
            return;
        setLoading(false);
        if (result.ok()) {
            setError(QString());
            apply(result.object());
        } else if (!result.canceled) {
            setError(result.errorMessage);
        }
        if (std::exchange(m_reloadAgain, false))
            reload();
    });
}

void SelectedDetail::runAction(
    const QString &path, std::function<void(const QJsonObject &answer, bool stillSelected)> done)
{
    if (detailPath().isEmpty() || !m_client || m_busy)
        return;
    setBusy(true);
    const quint64 generation = m_generation;
    m_client->callApi({"POST", path, {}, {}}, this,
                      [this, generation, done = std::move(done)](const ApiResult &result) {
                          setBusy(false);
                          if (result.canceled)
                              return;
                          const bool current = generation == m_generation;
                          if (!result.ok()) {
                              if (current)
                                  setError(result.errorMessage);
                              return;
                          }
                          if (current)
                              setError(QString());
                          done(result.object(), current);
                      });
}

void SelectedDetail::setLoading(bool loading)
{
    if (m_loading == loading)
        return;
    m_loading = loading;
    emit loadingChanged();
}

void SelectedDetail::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged();
    emit changed(); // what the actions allow depends on it
}

void SelectedDetail::setError(const QString &error)
{
    if (m_error == error)
        return;
    m_error = error;
    emit errorChanged();
}

} // namespace Gatehouse::Console
