#pragma once

#include <QLoggingCategory>

namespace Gatehouse::Cluster {
// The module's one logging category (gatehouse.cluster);
// QT_LOGGING_RULES="gatehouse.cluster.debug=true" shows its debug messages.
Q_DECLARE_LOGGING_CATEGORY(lcCluster)
} // namespace Gatehouse::Cluster
