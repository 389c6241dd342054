#pragma once

#include <QByteArray>
#include <QStringList>

namespace Gatehouse::Cluster {

// The members a JSON text gives twice in one object, as the paths kube-apiserver's strict
// decoder names them ("spec.replicas", "spec.containers[0].name"), in the order they appear.
// Qt's parser keeps the last value of a duplicate silently; fieldValidation Strict refuses
// them and Warn warns about each. Malformed text yields what was found before the fault
// (the parser reports the fault itself).
QStringList duplicateJsonFields(const QByteArray &json);

} // namespace Gatehouse::Cluster
