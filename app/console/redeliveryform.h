#pragma once

#include "adminclient.h"

#include <QJsonObject>
#include <QObject>
#include <QPointer>
#include <QVariantList>

namespace Gatehouse::Console {

// Bulk redelivery (docs/orders.md, /admin/v1/redeliveries): the Deliveries page's
// "Redeliver…" dialog. A filter (state, customer, order, endpoint, created from/to), a preview
// of what it selects (POST /redeliveries/preview: count, capped over 10,000, the first
// payloads), a rate, Start (POST /redeliveries) and the job's progress live from
// redelivery.progress events, Cancel (POST /redeliveries/{id}/cancel), and the jobs so far
// (GET /redeliveries, kept current by the same events). Errors are the server's messages.
class RedeliveryForm : public QObject
{
    Q_OBJECT
    // "failed" (the API's default), "succeeded" or "any".
    Q_PROPERTY(QString state READ state WRITE setState NOTIFY filterChanged)
    Q_PROPERTY(QString customerId READ customerId WRITE setCustomerId NOTIFY filterChanged)
    Q_PROPERTY(QString orderId READ orderId WRITE setOrderId NOTIFY filterChanged)
    Q_PROPERTY(QString endpointId READ endpointId WRITE setEndpointId NOTIFY filterChanged)
    // Creation time bounds as typed (ISO 8601, e.g. 2026-11-21T08:00:00Z); "" for none.
    Q_PROPERTY(QString from READ from WRITE setFrom NOTIFY filterChanged)
    Q_PROPERTY(QString to READ to WRITE setTo NOTIFY filterChanged)
    // Deliveries per second as typed ("10", "0.5" or "0,5"); valid from 0.1 to 1000.
    Q_PROPERTY(QString rateText READ rateText WRITE setRateText NOTIFY filterChanged)
    Q_PROPERTY(bool rateValid READ rateValid NOTIFY filterChanged)
    // [{value, text}] for the state combo box.
    Q_PROPERTY(QVariantList stateOptions READ stateOptions NOTIFY stateOptionsChanged)
    Q_PROPERTY(bool busy READ busy NOTIFY busyChanged)
    Q_PROPERTY(QString error READ error NOTIFY errorChanged)
    // The preview of the current filter; previewed turns false when the filter changes.
    Q_PROPERTY(bool previewed READ previewed NOTIFY previewChanged)
    Q_PROPERTY(int previewCount READ previewCount NOTIFY previewChanged)
    Q_PROPERTY(int previewMatching READ previewMatching NOTIFY previewChanged)
    Q_PROPERTY(bool previewCapped READ previewCapped NOTIFY previewChanged)
    // [{id, shortId, orderStatus, state, url, payload}] of the first (at most 5) selected.
    Q_PROPERTY(QVariantList previewItems READ previewItems NOTIFY previewChanged)
    Q_PROPERTY(bool canStart READ canStart NOTIFY stateChanged)
    // The job started here (or picked from the history); empty id when none.
    Q_PROPERTY(QString jobId READ jobId NOTIFY jobChanged)
    Q_PROPERTY(QString jobState READ jobState NOTIFY jobChanged) // running, completed, cancelled
    Q_PROPERTY(QString jobStateText READ jobStateText NOTIFY jobChanged)
    Q_PROPERTY(int jobTotal READ jobTotal NOTIFY jobChanged)
    Q_PROPERTY(int jobSent READ jobSent NOTIFY jobChanged)
    Q_PROPERTY(int jobDone READ jobDone NOTIFY jobChanged)
    Q_PROPERTY(int jobFailed READ jobFailed NOTIFY jobChanged)
    Q_PROPERTY(QString jobLastError READ jobLastError NOTIFY jobChanged)
    // sent / total, 0..1.
    Q_PROPERTY(double jobProgress READ jobProgress NOTIFY jobChanged)
    Q_PROPERTY(bool canCancel READ canCancel NOTIFY stateChanged)
    // [{id, state, stateText, total, sent, done, failed, rate, rateText, createdText,
    // filterText}], newest first.
    Q_PROPERTY(QVariantList jobs READ jobs NOTIFY jobsChanged)

public:
    static constexpr int MaxJobs = 20;
    static constexpr int MaxPreviewItems = 5;

    explicit RedeliveryForm(AdminClient *client, QObject *parent = nullptr);

    QString state() const { return m_state; }
    void setState(const QString &state);
    QString customerId() const { return m_customerId; }
    void setCustomerId(const QString &id);
    QString orderId() const { return m_orderId; }
    void setOrderId(const QString &id);
    QString endpointId() const { return m_endpointId; }
    void setEndpointId(const QString &id);
    QString from() const { return m_from; }
    void setFrom(const QString &from);
    QString to() const { return m_to; }
    void setTo(const QString &to);
    QString rateText() const { return m_rateText; }
    void setRateText(const QString &text);
    bool rateValid() const;
    double rate() const; // 0 when not valid
    QVariantList stateOptions() const;
    bool busy() const { return m_busy; }
    QString error() const { return m_error; }
    bool previewed() const { return m_previewed; }
    int previewCount() const { return m_preview.value(QLatin1String("count")).toInt(); }
    int previewMatching() const { return m_preview.value(QLatin1String("matching")).toInt(); }
    bool previewCapped() const { return m_preview.value(QLatin1String("capped")).toBool(); }
    QVariantList previewItems() const { return m_previewItems; }
    bool canStart() const;
    QString jobId() const;
    QString jobState() const;
    QString jobStateText() const;
    int jobTotal() const;
    int jobSent() const;
    int jobDone() const;
    int jobFailed() const;
    QString jobLastError() const;
    double jobProgress() const;
    bool canCancel() const;
    QVariantList jobs() const;

    // The filter as the API takes it (empty fields left out).
    QJsonObject filter() const;

    // Back to the defaults (failed, no bounds, 10/s), no preview, no job shown.
    Q_INVOKABLE void reset();
    Q_INVOKABLE void preview();
    Q_INVOKABLE void start();
    Q_INVOKABLE void cancel();
    // Shows this job of the history (its progress, Cancel).
    Q_INVOKABLE void showJob(const QString &jobId);
    Q_INVOKABLE void reloadJobs();
    Q_INVOKABLE void clearError();

    // API answers, public for tests.
    void applyPreview(const QJsonObject &answer);
    void applyJob(const QJsonObject &job);
    void applyJobs(const QJsonArray &items);
    void handleEvent(const AdminEvent &event);

    static QString stateText(const QString &jobState);

    // The language changed: the options' and the jobs' texts did.
    void retranslate();

signals:
    void stateOptionsChanged();
    void filterChanged();
    void busyChanged();
    void errorChanged();
    void previewChanged();
    void stateChanged();
    void jobChanged();
    void jobsChanged();

private:
    void filterEdited();
    void setBusy(bool busy);
    void setError(const QString &error);
    void call(const ApiCall &call, std::function<void(const QJsonObject &)> done);
    QJsonObject currentJob() const;

    QPointer<AdminClient> m_client;
    QString m_state = QStringLiteral("failed");
    QString m_customerId;
    QString m_orderId;
    QString m_endpointId;
    QString m_from;
    QString m_to;
    QString m_rateText = QStringLiteral("10");
    bool m_busy = false;
    QString m_error;
    bool m_previewed = false;
    QJsonObject m_preview;
    QVariantList m_previewItems;
    quint64 m_previewGeneration = 0;
    QString m_jobId;
    QList<QJsonObject> m_jobs; // newest first
};

} // namespace Gatehouse::Console
