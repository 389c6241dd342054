#pragma once

#include <QJsonObject>
#include <QTextStream>

// The text output of the cluster nouns (-o text): what each answer of the cluster API, or of
// the admin API about it, looks like in a terminal.
namespace Gatehouse::Cli::ClusterViews {

// Lists (the items of a Kubernetes list) as tables.
void printNodes(const QJsonObject &list, QTextStream &out);
void printNamespaces(const QJsonObject &list, QTextStream &out);
void printRoles(const QJsonObject &list, QTextStream &out);
void printBindings(const QJsonObject &list, QTextStream &out);

// A node's labels, one K=V a line.
void printLabels(const QJsonObject &object, QTextStream &out);
// An explain answer: each stage's decision and reason, the denial, the near misses.
void printTrace(const QJsonObject &t, QTextStream &out);
// Effective access: every verb x resource held, and the bindings and rules behind each.
void printAccess(const QJsonObject &answer, QTextStream &out);
// who-can: a subject per row, a verb per column.
void printWhoCan(const QJsonObject &answer, QTextStream &out);
void printSettings(const QJsonObject &settings, QTextStream &out);

} // namespace Gatehouse::Cli::ClusterViews
