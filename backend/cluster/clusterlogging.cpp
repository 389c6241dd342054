#include "cluster/clusterlogging.h"

namespace Gatehouse::Cluster {
Q_LOGGING_CATEGORY(lcCluster, "gatehouse.cluster", QtInfoMsg)
} // namespace Gatehouse::Cluster
