#pragma once

#include <QProcessEnvironment>
#include <QStringList>
#include <QTextStream>

namespace Gatehouse::Cli {

// `gatehouse admin <noun> <verb>`: a command line over the admin API of a running
// backend. Finds the admin URL in <data-dir>/ports.json and the token in
// <data-dir>/admin-token unless --admin-url / --admin-token (or GATEHOUSE_ADMIN_URL /
// GATEHOUSE_ADMIN_TOKEN) say otherwise. Needs a running event loop-capable
// QCoreApplication. Returns the process exit code.
int runAdminCli(const QStringList &args, const QProcessEnvironment &env, QTextStream &out,
                QTextStream &err);

} // namespace Gatehouse::Cli
