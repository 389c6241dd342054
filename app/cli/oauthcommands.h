#pragma once

#include "cli/command.h"

// The authorization server (docs/oauth.md): clients, keys, users, initial-access-tokens,
// tokens, issuers, consents. Shows, deletes and plain actions are the shared showById,
// deleteById and postAction.
namespace Gatehouse::Cli::OAuthCommands {

int clientsList(const Invocation &in);
int clientsRegister(const Invocation &in);
int clientsUpdate(const Invocation &in);
int clientsAccess(const Invocation &in);
int keysList(const Invocation &in);
int keysRotate(const Invocation &in);
int usersList(const Invocation &in);
int usersAdd(const Invocation &in);
int usersSetPassword(const Invocation &in);
int usersAccess(const Invocation &in);
int initialAccessTokensCreate(const Invocation &in);
int initialAccessTokensList(const Invocation &in);
int tokensList(const Invocation &in);
int tokensPreview(const Invocation &in);
int issuersList(const Invocation &in);
int issuersAdd(const Invocation &in);
int issuersRemove(const Invocation &in);
int consentsList(const Invocation &in);
int consentsRevoke(const Invocation &in);

} // namespace Gatehouse::Cli::OAuthCommands
