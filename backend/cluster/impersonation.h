#pragma once

#include "cluster/requestinfo.h"
#include "cluster/status.h"

#include <functional>
#include <optional>

namespace Gatehouse::Core {
struct HttpRequest;
}

namespace Gatehouse::Cluster {

struct AuthorizationResult;

// kube-apiserver's impersonation filter: Impersonate-User, Impersonate-Group (repeated),
// Impersonate-Uid and Impersonate-Extra-<key> make the request act as that identity, each
// allowed only by the `impersonate` verb on users (serviceaccounts in their namespace for
// system:serviceaccount:NS:NAME), groups, uids and userextras/<key> (authentication.k8s.io),
// named by the value. Without it the request is refused (403, kube's text), never run as the
// caller: a proxy that authenticates its users and forwards their requests with these headers
// must not hand every user its own rights.
struct Impersonation
{
    bool requested = false;        // some Impersonate-* header was sent
    UserInfo user;                 // the identity to act as (when allowed)
    std::optional<Status> refusal; // 400 (a group without a user...) or 403
};

Impersonation impersonate(const Core::HttpRequest &request, const UserInfo &caller,
                          const std::function<AuthorizationResult(const Attributes &)> &authorize);

} // namespace Gatehouse::Cluster
