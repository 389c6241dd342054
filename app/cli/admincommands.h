#pragma once

#include "cli/command.h"

// The backend itself: status, config (settings), admin-tokens, audit.
namespace Gatehouse::Cli::AdminCommands {

int status(const Invocation &in);
int configList(const Invocation &in);
int configShow(const Invocation &in);
int configSet(const Invocation &in);
int configReset(const Invocation &in);
int adminTokensCreate(const Invocation &in);
int adminTokensList(const Invocation &in);
int auditList(const Invocation &in);

} // namespace Gatehouse::Cli::AdminCommands
