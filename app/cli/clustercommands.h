#pragma once

#include "cli/command.h"

// The cluster API (docs/cluster.md): kubeconfig, nodes, namespaces, labels, rbac, settings,
// explain, cluster-requests. The objects are read and written through the admin API's view of
// the cluster API (/admin/v1/cluster/k8s/...); refusals are Kubernetes Status bodies.
namespace Gatehouse::Cli::ClusterCommands {

int kubeconfigIssue(const Invocation &in); // kubeconfig user|node NAME
int kubeconfigView(const Invocation &in);
int nodesList(const Invocation &in);
int namespacesList(const Invocation &in);
int objectShow(const Invocation &in); // nodes|namespaces show NAME
int objectCreate(const Invocation &in);
int objectDelete(const Invocation &in);
int labelsList(const Invocation &in);
int labelsChange(const Invocation &in); // labels set|remove NODE ...
int rbacRoles(const Invocation &in);
int rbacBindings(const Invocation &in);
int rbacImport(const Invocation &in);
int rbacDelete(const Invocation &in);
int rbacAccess(const Invocation &in);
int rbacWhoCan(const Invocation &in);
int settingsShow(const Invocation &in);
int settingsSet(const Invocation &in);
int explain(const Invocation &in);
int clusterRequestsList(const Invocation &in);

} // namespace Gatehouse::Cli::ClusterCommands
