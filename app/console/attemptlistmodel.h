#pragma once

#include "jsonlistmodel.h"

#include <QJsonArray>

namespace Gatehouse::Console {

// The attempt log of one delivery, newest attempt first.
class AttemptListModel : public Gatehouse::Console::JsonListModel
{
    Q_OBJECT

public:
    enum Role {
        NumberRole = Qt::UserRole + 1,
        AtTextRole,
        UrlRole,
        TriggerRole, // "scheduled", "manual"
        TriggerTextRole,
        StatusRole, // HTTP status, 0 when there was no answer
        StatusTextRole,
        LatencyRole, // ms, -1 when none
        LatencyTextRole,
        ResponseBodyRole,
        ResponsePreviewRole, // the first lines of the body
        ErrorRole,
        FailedRole,      // no answer, or not 2xx
        HeadersTextRole, // the request headers, "name: value" per line
    };
    Q_ENUM(Role)

    explicit AttemptListModel(QObject *parent = nullptr);

    QHash<int, QByteArray> roleNames() const override;
    void setAttempts(const QJsonArray &attempts);

protected:
    QVariant value(const QJsonObject &row, int role) const override;
    QString idOf(const QJsonObject &row) const override;
};

} // namespace Gatehouse::Console
