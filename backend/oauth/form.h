#pragma once

#include "core/httpmessage.h"
#include "oauth/oautherror.h"

#include <QHash>

#include <optional>

namespace Gatehouse::OAuth {

// application/x-www-form-urlencoded decoding ('+' is a space) of one name or value.
QString formDecode(const QByteArray &v);

// Parses a urlencoded string (a form body or a query) into out, each name at most once;
// the first repeated name goes to *repeated and parsing stops (false).
bool parseUrlEncoded(const QByteArray &encoded, QHash<QString, QString> *out, QString *repeated);

// "parameter 'NAME' is repeated", naming it only when it looks like a parameter's name
// (1-40 of A-Z a-z 0-9 _ . : -): a name is the sender's text, and an error page on this
// origin must not say what a link's author wrote.
QString repeatedParameter(const QString &name);
// A request's value quoted for an error message ("'orders:read'") when it is a plain token:
// 1 to 64 characters of RFC 6749's scope-token set (printable ASCII without space, '"' and
// '\\'); else `otherwise`. Nobody puts their own sentence on this server's error page, or in
// the error_description of a redirect from it.
QString quotedToken(const QString &value, const QString &otherwise);

// A request body that must be application/x-www-form-urlencoded with every parameter at
// most once (RFC 6749 §3.2): otherwise invalid_request.
std::optional<OAuthError> parseForm(const Core::HttpRequest &req, QHash<QString, QString> *out);

// The value of one cookie of the request's Cookie headers, empty when absent or when the name
// appears more than once (a same-named cookie planted by a sibling site, with a longer path so
// that it comes first, is never taken for the real one).
QString cookieValue(const Core::HttpRequest &req, const QByteArray &name);

} // namespace Gatehouse::OAuth
