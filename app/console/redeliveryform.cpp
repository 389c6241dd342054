#include "redeliveryform.h"
#include "fields.h"

#include "orderstatus.h"

#include <QJsonArray>
#include <QLocale>

#include <algorithm>

namespace Gatehouse::Console {

namespace {
int num(const QJsonObject &o, const char *key)
{
    return std::max(0, o.value(QLatin1String(key)).toInt());
}
} // namespace

RedeliveryForm::RedeliveryForm(AdminClient *client, QObject *parent)
    : QObject(parent), m_client(client)
{
    connect(this, &RedeliveryForm::busyChanged, this, &RedeliveryForm::stateChanged);
    connect(this, &RedeliveryForm::previewChanged, this, &RedeliveryForm::stateChanged);
    connect(this, &RedeliveryForm::filterChanged, this, &RedeliveryForm::stateChanged);
    connect(this, &RedeliveryForm::jobChanged, this, &RedeliveryForm::stateChanged);
    if (!client)
        return;
    connect(client, &AdminClient::eventReceived, this, &RedeliveryForm::handleEvent);
    connect(client, &AdminClient::connectionStateChanged, this, [this] {
        if (m_client && m_client->connectionState() == AdminClient::Online)
            reloadJobs(); // progress may have been missed while away
    });
}

void RedeliveryForm::setState(const QString &state)
{
    if (m_state == state)
        return;
    m_state = state;
    filterEdited();
}

void RedeliveryForm::setCustomerId(const QString &id)
{
    if (m_customerId == id)
        return;
    m_customerId = id;
    filterEdited();
}

void RedeliveryForm::setOrderId(const QString &id)
{
    if (m_orderId == id)
        return;
    m_orderId = id;
    filterEdited();
}

void RedeliveryForm::setEndpointId(const QString &id)
{
    if (m_endpointId == id)
        return;
    m_endpointId = id;
    filterEdited();
}

void RedeliveryForm::setFrom(const QString &from)
{
    if (m_from == from)
        return;
    m_from = from;
    filterEdited();
}

void RedeliveryForm::setTo(const QString &to)
{
    if (m_to == to)
        return;
    m_to = to;
    filterEdited();
}

void RedeliveryForm::setRateText(const QString &text)
{
    if (m_rateText == text)
        return;
    m_rateText = text;
    emit filterChanged(); // the rate does not change what the preview selects
}

double RedeliveryForm::rate() const
{
    QString text = m_rateText.trimmed();
    text.replace(QLatin1Char(','), QLatin1Char('.'));
    bool ok = false;
    const double value = text.toDouble(&ok);
    return ok && value >= 0.1 && value <= 1000 ? value : 0;
}

bool RedeliveryForm::rateValid() const
{
    return rate() > 0;
}

QVariantList RedeliveryForm::stateOptions() const
{
    return {QVariantMap{{"value", QStringLiteral("failed")}, {"text", tr("Failed")}},
            QVariantMap{{"value", QStringLiteral("succeeded")}, {"text", tr("Succeeded")}},
            QVariantMap{{"value", QStringLiteral("any")}, {"text", tr("Failed or succeeded")}}};
}

bool RedeliveryForm::canStart() const
{
    return m_previewed && previewCount() > 0 && rateValid() && !m_busy && !canCancel();
}

QJsonObject RedeliveryForm::currentJob() const
{
    for (const QJsonObject &job : m_jobs)
        if (str(job, "id") == m_jobId)
            return job;
    return {};
}

QString RedeliveryForm::jobId() const
{
    return m_jobId;
}

QString RedeliveryForm::jobState() const
{
    return str(currentJob(), "state");
}

QString RedeliveryForm::jobStateText() const
{
    return stateText(jobState());
}

int RedeliveryForm::jobTotal() const
{
    return num(currentJob(), "total");
}

int RedeliveryForm::jobSent() const
{
    return num(currentJob(), "sent");
}

int RedeliveryForm::jobDone() const
{
    return num(currentJob(), "done");
}

int RedeliveryForm::jobFailed() const
{
    return num(currentJob(), "failed");
}

QString RedeliveryForm::jobLastError() const
{
    return str(currentJob(), "lastError");
}

double RedeliveryForm::jobProgress() const
{
    const int total = jobTotal();
    return total > 0 ? std::clamp(double(jobSent()) / total, 0.0, 1.0) : 0.0;
}

bool RedeliveryForm::canCancel() const
{
    return !m_busy && jobState() == QLatin1String("running");
}

QString RedeliveryForm::stateText(const QString &jobState)
{
    if (jobState == QLatin1String("running"))
        return tr("Running");
    if (jobState == QLatin1String("completed"))
        return tr("Completed");
    if (jobState == QLatin1String("cancelled"))
        return tr("Cancelled");
    return jobState;
}

QVariantList RedeliveryForm::jobs() const
{
    QVariantList out;
    for (const QJsonObject &job : m_jobs) {
        QStringList filter;
        const QJsonObject f = job.value(QLatin1String("filter")).toObject();
        for (auto it = f.begin(); it != f.end(); ++it)
            filter.append(QStringLiteral("%1=%2").arg(it.key(), it.value().toString()));
        const double rate = job.value(QLatin1String("ratePerSecond")).toDouble();
        out.append(
            QVariantMap{{"id", str(job, "id")},
                        {"state", str(job, "state")},
                        {"stateText", stateText(str(job, "state"))},
                        {"total", num(job, "total")},
                        {"sent", num(job, "sent")},
                        {"done", num(job, "done")},
                        {"failed", num(job, "failed")},
                        {"rate", rate},
                        {"rateText", QLocale().toString(rate, 'g', 6)}, // "0,5" in French
                        {"createdText", ConsoleFormat::time(job.value(QLatin1String("createdAt")))},
                        {"filterText", filter.join(QStringLiteral(", "))}});
    }
    return out;
}

QJsonObject RedeliveryForm::filter() const
{
    QJsonObject f;
    const std::pair<const char *, const QString *> fields[] = {
        {"state", &m_state},     {"customerId", &m_customerId},
        {"orderId", &m_orderId}, {"endpointId", &m_endpointId},
        {"from", &m_from},       {"to", &m_to}};
    for (const auto &[key, value] : fields)
        if (!value->trimmed().isEmpty())
            f.insert(QLatin1String(key), value->trimmed());
    return f;
}

void RedeliveryForm::reset()
{
    m_state = QStringLiteral("failed");
    m_customerId.clear();
    m_orderId.clear();
    m_endpointId.clear();
    m_from.clear();
    m_to.clear();
    m_rateText = QStringLiteral("10");
    m_jobId.clear();
    setError(QString());
    filterEdited();
    emit jobChanged();
}

void RedeliveryForm::preview()
{
    const quint64 generation = ++m_previewGeneration;
    call({"POST", QStringLiteral("/redeliveries/preview"), {}, QJsonObject{{"filter", filter()}}},
         [this, generation](const QJsonObject &answer) {
             if (generation == m_previewGeneration)
                 applyPreview(answer);
         });
}

void RedeliveryForm::start()
{
    if (!rateValid())
        return;
    call({"POST",
          QStringLiteral("/redeliveries"),
          {},
          QJsonObject{{"filter", filter()}, {"ratePerSecond", rate()}}},
         [this](const QJsonObject &job) {
             m_jobId = str(job, "id");
             applyJob(job);
         });
}

void RedeliveryForm::cancel()
{
    if (m_jobId.isEmpty())
        return;
    call({"POST", QStringLiteral("/redeliveries/%1/cancel").arg(m_jobId), {}, {}},
         [this](const QJsonObject &job) { applyJob(job); });
}

void RedeliveryForm::showJob(const QString &jobId)
{
    if (m_jobId == jobId)
        return;
    m_jobId = jobId;
    emit jobChanged();
}

void RedeliveryForm::reloadJobs()
{
    if (!m_client || m_client->connectionState() != AdminClient::Online)
        return;
    QUrlQuery query;
    query.addQueryItem(QStringLiteral("limit"), QString::number(MaxJobs));
    m_client->callApi({"GET", QStringLiteral("/redeliveries"), query, {}}, this,
                      [this](const ApiResult &result) {
                          if (result.ok())
                              applyJobs(result.object().value(QLatin1String("items")).toArray());
                          else if (!result.canceled)
                              setError(result.errorMessage);
                      });
}

void RedeliveryForm::clearError()
{
    setError(QString());
}

void RedeliveryForm::applyPreview(const QJsonObject &answer)
{
    m_preview = answer;
    m_previewItems.clear();
    for (const QJsonValue v : answer.value(QLatin1String("deliveries")).toArray()) {
        const QJsonObject d = v.toObject();
        if (d.isEmpty())
            continue;
        if (m_previewItems.size() == MaxPreviewItems)
            break;
        m_previewItems.append(
            QVariantMap{{"id", str(d, "id")},
                        {"shortId", str(d, "id").left(12)},
                        {"orderStatus", OrderStatus::displayName(str(d, "orderStatus"))},
                        {"state", DeliveryState::displayName(str(d, "state"))},
                        {"url", str(d, "url")},
                        {"payload", str(d, "payload")}});
    }
    m_previewed = true;
    emit previewChanged();
}

void RedeliveryForm::applyJob(const QJsonObject &job)
{
    const QString id = str(job, "id");
    if (id.isEmpty())
        return;
    auto it = std::find_if(m_jobs.begin(), m_jobs.end(),
                           [&id](const QJsonObject &j) { return str(j, "id") == id; });
    if (it != m_jobs.end()) {
        // Events can arrive out of order with an answer: progress never goes back.
        if (str(*it, "state") != QLatin1String("running") &&
            str(job, "state") == QLatin1String("running"))
            return;
        if (str(job, "state") == QLatin1String("running") && num(job, "sent") < num(*it, "sent"))
            return;
        *it = job;
    } else {
        m_jobs.prepend(job);
        std::stable_sort(m_jobs.begin(), m_jobs.end(),
                         [](const QJsonObject &a, const QJsonObject &b) {
                             return ConsoleFormat::parseTime(a.value(QLatin1String("createdAt"))) >
                                    ConsoleFormat::parseTime(b.value(QLatin1String("createdAt")));
                         });
        while (m_jobs.size() > MaxJobs)
            m_jobs.removeLast();
    }
    emit jobsChanged();
    if (id == m_jobId)
        emit jobChanged();
}

void RedeliveryForm::applyJobs(const QJsonArray &items)
{
    m_jobs.clear();
    for (const QJsonValue v : items) {
        const QJsonObject job = v.toObject();
        if (!str(job, "id").isEmpty() && m_jobs.size() < MaxJobs)
            m_jobs.append(job);
    }
    emit jobsChanged();
    emit jobChanged();
}

void RedeliveryForm::handleEvent(const AdminEvent &event)
{
    if (event.type == QLatin1String("redelivery.progress"))
        applyJob(event.data);
}

void RedeliveryForm::filterEdited()
{
    ++m_previewGeneration; // an answer under way is for the old filter
    const bool had = m_previewed;
    m_previewed = false;
    m_preview = {};
    m_previewItems.clear();
    emit filterChanged();
    if (had)
        emit previewChanged();
}

void RedeliveryForm::setBusy(bool busy)
{
    if (m_busy == busy)
        return;
    m_busy = busy;
    emit busyChanged();
}

void RedeliveryForm::setError(const QString &error)
{
    if (m_error == error)
        return;
    m_error = error;
    emit errorChanged();
}

void RedeliveryForm::call(const ApiCall &apiCall, std::function<void(const QJsonObject &)> done)
{
    if (!m_client || m_busy)
        return;
    setBusy(true);
    setError(QString());
    m_client->callApi(apiCall, this, [this, done = std::move(done)](const ApiResult &result) {
        setBusy(false);
        if (result.canceled)
            return;
        if (!result.ok()) {
            setError(result.errorMessage);
            return;
        }
        done(result.object());
    });
}

void RedeliveryForm::retranslate()
{
    emit stateOptionsChanged();
    emit jobChanged();
    emit jobsChanged();
    emit previewChanged();
}

} // namespace Gatehouse::Console
