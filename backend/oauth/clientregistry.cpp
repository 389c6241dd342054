#include "oauth/clientregistry.h"

#include "core/clock.h"
#include "core/database.h"
#include "core/jsontypename.h"
#include "core/text.h"
#include "core/writequeue.h"
#include "crypto/digest.h"
#include "crypto/jws.h"
#include "crypto/privatekey.h"
#include "crypto/random.h"
#include "oauth/granthandler.h"
#include "oauth/oauthstore.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QSqlError>
#include <QSqlQuery>
#include <QUrl>
#include <QUuid>

#include <algorithm>

namespace Gatehouse::OAuth {

namespace {

// A web address (http, https) names its host right after "//", with no user name before it, as
// a browser reads it: "https:///phish.example/cb" and "https:phish.example/cb" go to
// phish.example while Qt reads no host (the consent page said "you return to https://"), and
// "https://good.example@phish.example/cb" reads to a person as good.example. Other schemes
// (private-use, RFC 8252 §7.1) have no authority to check.
bool namesItsHost(const QString &raw, const QUrl &url)
{
    if (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http"))
        return true;
    const qsizetype start = url.scheme().size() + 3;
    if (!raw.mid(url.scheme().size(), 3).startsWith(QLatin1String("://")) || url.host().isEmpty())
        return false;
    qsizetype end = start;
    while (end < raw.size() && raw[end] != QLatin1Char('/') && raw[end] != QLatin1Char('?') &&
           raw[end] != QLatin1Char('#'))
        ++end;
    const QString authority = raw.mid(start, end - start);
    return !authority.isEmpty() && !authority.contains(QLatin1Char('@')) &&
           !authority.contains(QLatin1Char('\\'));
}

QStringList strings(const QJsonValue &v)
{
    QStringList out;
    for (const auto &x : v.toArray())
        out.append(x.toString());
    return out;
}

Core::Error metadataError(const QString &code, const QString &message)
{
    return Core::Error{code, message, 400};
}

Client fromRow(const QString &clientId, const QString &secretHash, const QByteArray &record,
               bool selfRegistered)
{
    const QJsonObject o = QJsonDocument::fromJson(record).object();
    Client c;
    c.clientId = clientId;
    c.secretHash = secretHash;
    c.selfRegistered = selfRegistered;
    c.clientName = o.value(QStringLiteral("client_name")).toString();
    c.redirectUris = strings(o.value(QStringLiteral("redirect_uris")));
    c.postLogoutRedirectUris = strings(o.value(QStringLiteral("post_logout_redirect_uris")));
    c.grantTypes = strings(o.value(QStringLiteral("grant_types")));
    c.scopes =
        o.value(QStringLiteral("scope")).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    c.tokenEndpointAuthMethod = o.value(QStringLiteral("token_endpoint_auth_method")).toString();
    c.logoUri = o.value(QStringLiteral("logo_uri")).toString();
    c.contacts = strings(o.value(QStringLiteral("contacts")));
    c.accessTokenFormat =
        o.value(QStringLiteral("access_token_format")).toString(QStringLiteral("jwt"));
    c.accessTokenLifetime = o.value(QStringLiteral("access_token_lifetime")).toInt(3600);
    c.accessTokenSigningAlg = o.value(QStringLiteral("access_token_signed_response_alg"))
                                  .toString(QStringLiteral("RS256"));
    c.idTokenSigningAlg =
        o.value(QStringLiteral("id_token_signed_response_alg")).toString(QStringLiteral("RS256"));
    c.createdAt = Core::jsonSeconds(o.value(QStringLiteral("client_id_issued_at"))) * 1000;
    c.jwks = o.value(QStringLiteral("jwks")).toObject();
    c.jwksUri = o.value(QStringLiteral("jwks_uri")).toString();
    c.tokenExchangeAudiences = strings(o.value(QStringLiteral("token_exchange_audiences")));
    c.allowedResources = strings(o.value(QStringLiteral("allowed_resources")));
    c.ordersCustomers = strings(o.value(QStringLiteral("orders_customers")));
    c.resourceServer = o.value(QStringLiteral("resource_server")).toBool();
    c.clusterAccess = o.value(QStringLiteral("cluster_access")).toBool();
    c.credentialsUntil =
        Core::jsonSeconds(o.value(QStringLiteral("client_secret_expires_at"))) * 1000;
    const QJsonValue policy = o.value(QStringLiteral("registration_policy"));
    if (policy.isObject())
        if (auto p = RegistrationPolicy::fromJson(policy, {}))
            c.registrationPolicy = *p;
    return c;
}

// Whether the stored record of a client allows it to act for the cluster (read in the
// writer's transaction, so that a concurrent metadata update keeps the flag).
// What an administrator's calls own in a stored record, read in the writer's transaction so
// that a concurrent metadata update neither drops the cluster flag nor brings back a secret a
// rotation replaced.
struct StoredOwned
{
    bool found = false;
    bool clusterAccess = false;
    QString secretHash;
    std::optional<RegistrationPolicy> registrationPolicy;
    bool registrantManages = false; // a registration access token is still valid
    QString registrationTokenHash;
    Client client; // as stored

    // Whether `token` is the client's registration access token as stored now (a rotation
    // may have committed since the caller's check).
    bool registrationTokenIs(const QString &token) const
    {
        Client probe;
        probe.secretHash = registrationTokenHash;
        return registrantManages && ClientRegistry::secretMatches(probe, token);
    }
};

StoredOwned storedOwned(Core::WriteTransaction &tx, const QString &clientId)
{
    // On PostgreSQL each instance has its own writer: the row is locked until this transaction
    // ends, so that a change another instance commits meanwhile (an administrator narrowing
    // the client) is either seen here or waits for this one, never overwritten by a record
    // built from what was read before it. (SQLite's one writer runs them one after the other.)
    QSqlQuery &q =
        tx.query(tx.isPostgres() ? QStringLiteral("SELECT secret_hash, record, "
                                                  "registration_token_hash FROM oauth_clients "
                                                  "WHERE client_id = ? FOR UPDATE")
                                 : QStringLiteral("SELECT secret_hash, record, "
                                                  "registration_token_hash FROM oauth_clients "
                                                  "WHERE client_id = ?"));
    q.addBindValue(clientId);
    if (!q.exec() || !q.next())
        return {};
    const Client stored =
        fromRow(clientId, q.value(0).toString(), q.value(1).toByteArray(), !q.value(2).isNull());
    return StoredOwned{true,
                       stored.clusterAccess,
                       stored.secretHash,
                       stored.registrationPolicy,
                       !q.value(2).isNull(),
                       q.value(2).toString(),
                       stored};
}

// The keys (RFC 7638 thumbprints) a client's jwks holds.
QSet<QString> keyThumbprints(const Client &c)
{
    QSet<QString> out;
    for (const QJsonValue k : c.jwks.value(QStringLiteral("keys")).toArray())
        out.insert(Crypto::jwkThumbprint(k.toObject()));
    return out;
}

// When the credentials of `after` (an administrator's change of `stored`) end: a change that
// issues a credential (secretIssued, or a key `stored` did not have) under a bound (an
// expiring admin token's end) ends them by then at the latest; one without a bound that
// replaces every credential the client authenticates with (a new secret for a secret client,
// keys none of which `stored` had for a private_key_jwt client) lifts the end; anything else
// keeps it (docs/admin-tokens.md).
qint64 credentialsEnd(const Client &stored, const Client &after, bool secretIssued, qint64 bound)
{
    const QSet<QString> before = keyThumbprints(stored);
    const QSet<QString> keys = keyThumbprints(after);
    const bool keyAuth = after.tokenEndpointAuthMethod == QLatin1String("private_key_jwt");
    const bool keyAdded =
        keyAuth && std::any_of(keys.begin(), keys.end(),
                               [&before](const QString &k) { return !before.contains(k); });
    const bool replacedAll = (after.usesSecret() && secretIssued) ||
                             (keyAuth && !keys.isEmpty() && !keys.intersects(before));
    if (bound > 0 && (secretIssued || keyAdded))
        return stored.credentialsUntil > 0 ? std::min(stored.credentialsUntil, bound) : bound;
    if (bound <= 0 && replacedAll)
        return 0;
    return stored.credentialsUntil;
}

// A registrant's change that an administrator's change overtook (the registration access
// token was withdrawn between the caller's check and this transaction).
Core::Error registrationTokenWithdrawn()
{
    return Core::Error{QStringLiteral("invalid_token"),
                       QStringLiteral("the registration access token is not valid for this "
                                      "client"),
                       401};
}

} // namespace

Core::Error ClientRegistry::clusterClientRefused()
{
    return Core::Error{QStringLiteral("access_denied"),
                       QStringLiteral("this client is allowed to act for the cluster; only an "
                                      "administrator (cluster:write) may change it"),
                       403};
}

namespace {

const QString kDeviceCodeGrant = QStringLiteral("urn:ietf:params:oauth:grant-type:device_code");

// The client's device codes not redeemed yet (waiting for their user, or allowed) are denied:
// its device grant was taken, or it was deleted.
Core::Result<void> denyDeviceCodes(Core::WriteTransaction &tx, const QString &clientId)
{
    Core::Statement &d = tx.stmt("UPDATE oauth_device_codes SET status = 'denied' WHERE "
                                 "client_id = ? AND status IN ('pending', 'approved')");
    if (!d.bind(1, clientId).exec())
        return Core::WriteTransaction::sqlError(d, "deny the client's device codes");
    return {};
}

QString listText(const QStringList &l)
{
    return l.isEmpty() ? QStringLiteral("none") : l.join(QStringLiteral(", "));
}

} // namespace

RegistrationPolicy RegistrationPolicy::defaults()
{
    return RegistrationPolicy{{QStringLiteral("authorization_code"),
                               QStringLiteral("refresh_token"),
                               QStringLiteral("urn:ietf:params:oauth:grant-type:device_code")},
                              {QStringLiteral("openid"), QStringLiteral("profile"),
                               QStringLiteral("email"), QStringLiteral("offline_access")},
                              {},
                              std::nullopt,
                              {},
                              std::nullopt,
                              std::nullopt};
}

QJsonObject RegistrationPolicy::toJson() const
{
    QJsonObject o{{QStringLiteral("grantTypes"), QJsonArray::fromStringList(grantTypes)},
                  {QStringLiteral("scopes"), QJsonArray::fromStringList(scopes)},
                  {QStringLiteral("audiences"), QJsonArray::fromStringList(audiences)}};
    if (redirectUris)
        o.insert(QStringLiteral("redirectUris"), QJsonArray::fromStringList(*redirectUris));
    if (!customers.isEmpty())
        o.insert(QStringLiteral("customers"), QJsonArray::fromStringList(customers));
    if (resources)
        o.insert(QStringLiteral("resources"), QJsonArray::fromStringList(*resources));
    if (keys)
        o.insert(QStringLiteral("keys"), QJsonArray::fromStringList(*keys));
    return o;
}

Core::Result<RegistrationPolicy> RegistrationPolicy::fromJson(const QJsonValue &v,
                                                              const RegistrationPolicy &base)
{
    auto invalid = [](const QString &m) {
        return Core::Error{QStringLiteral("validation-failed"), m, 400};
    };
    if (!v.isObject())
        return invalid(QStringLiteral("policy: an object {\"grantTypes\", \"scopes\", "
                                      "\"audiences\"} is required"));
    const QJsonObject o = v.toObject();
    RegistrationPolicy p = base;
    QStringList redirects;
    QStringList resources;
    QStringList keys;
    for (auto it = o.begin(); it != o.end(); ++it) {
        QStringList *target = it.key() == QLatin1String("grantTypes")     ? &p.grantTypes
                              : it.key() == QLatin1String("scopes")       ? &p.scopes
                              : it.key() == QLatin1String("audiences")    ? &p.audiences
                              : it.key() == QLatin1String("redirectUris") ? &redirects
                              : it.key() == QLatin1String("customers")    ? &p.customers
                              : it.key() == QLatin1String("resources")    ? &resources
                              : it.key() == QLatin1String("keys")         ? &keys
                                                                          : nullptr;
        if (!target)
            return invalid(QStringLiteral("policy: unknown member '%1' (grantTypes, scopes, "
                                          "audiences, redirectUris, customers, resources, keys)")
                               .arg(it.key().left(64)));
        if (!it.value().isArray())
            return invalid(
                QStringLiteral("policy.%1: an array of strings is required").arg(it.key()));
        QStringList l;
        for (const QJsonValue e : it.value().toArray()) {
            if (!e.isString() || e.toString().isEmpty() || e.toString().size() > 2048)
                return invalid(
                    QStringLiteral("policy.%1: an array of non-empty strings is required")
                        .arg(it.key()));
            l.append(e.toString());
        }
        l.removeDuplicates();
        if (target == &p.grantTypes)
            for (const QString &g : std::as_const(l))
                if (!ClientRegistry::supportedGrantTypes().contains(g))
                    return invalid(
                        QStringLiteral("policy.grantTypes: '%1' is not a supported grant type")
                            .arg(g.left(200)));
        if (target == &p.customers && l.size() > 1000)
            return invalid(QStringLiteral("policy.customers: at most 1000 customers"));
        if (target == &p.customers)
            for (QString &id : l) {
                const QUuid uuid = QUuid::fromString(id);
                if (uuid.isNull())
                    return invalid(QStringLiteral("policy.customers: '%1' is not a customer id "
                                                  "(a UUID)")
                                       .arg(id.left(200)));
                id = uuid.toString(QUuid::WithoutBraces);
            }
        l.removeDuplicates();
        *target = l;
        if (target == &redirects)
            p.redirectUris = l;
        else if (target == &resources)
            p.resources = l;
        else if (target == &keys)
            p.keys = l;
    }
    return p;
}

// The longest access_token_lifetime a registration (RFC 7591) may ask for: the default.
constexpr int kRegisteredLifetimeMax = 3600;

std::optional<Core::Error> RegistrationPolicy::check(const Client &c, const Client *current) const
{
    auto refused = [](const char *field, const QString &value, const QStringList &allowed) {
        return Core::Error{QStringLiteral("invalid_client_metadata"),
                           QStringLiteral("%1: '%2' is not allowed by the registration policy "
                                          "(allowed: %3)")
                               .arg(QLatin1String(field), value.left(200), listText(allowed)),
                           400};
    };
    struct Field
    {
        const char *name;
        const QStringList &wanted;
        const QStringList &allowed;
        QStringList had;
    };
    const Field fields[] = {
        {"grant_types", c.grantTypes, grantTypes, current ? current->grantTypes : QStringList()},
        {"scope", c.scopes, scopes, current ? current->scopes : QStringList()},
        {"token_exchange_audiences", c.tokenExchangeAudiences, audiences,
         current ? current->tokenExchangeAudiences : QStringList()},
        {"allowed_resources", c.allowedResources, resources ? *resources : audiences,
         current ? current->allowedResources : QStringList()}};
    for (const Field &f : fields)
        for (const QString &v : f.wanted)
            if (!f.allowed.contains(v) && !f.had.contains(v))
                return refused(f.name, v, f.allowed);
    if (redirectUris)
        for (const QString &v : c.redirectUris)
            if (!redirectUris->contains(v) && !(current && current->redirectUris.contains(v)))
                return refused("redirect_uris", v, *redirectUris);
    if (redirectUris)
        for (const QString &v : c.postLogoutRedirectUris)
            if (!redirectUris->contains(v) &&
                !(current && current->postLogoutRedirectUris.contains(v)))
                return refused("post_logout_redirect_uris", v, *redirectUris);
    if (keys)
        for (const QJsonValue k : c.jwks.value(QStringLiteral("keys")).toArray())
            if (!keys->contains(Crypto::jwkThumbprint(k.toObject())))
                return Core::Error{QStringLiteral("invalid_client_metadata"),
                                   QStringLiteral("jwks: only an administrator may add a key to "
                                                  "this client (its keys are those an "
                                                  "administrator left it)"),
                                   400};
    // Bound to customers: its own update may drop some, not add any nor drop the binding.
    if (current && !current->ordersCustomers.isEmpty()) {
        const bool narrower = !c.ordersCustomers.isEmpty() &&
                              std::all_of(c.ordersCustomers.cbegin(), c.ordersCustomers.cend(),
                                          [current](const QString &id) {
                                              return current->ordersCustomers.contains(id);
                                          });
        if (!narrower)
            return Core::Error{QStringLiteral("invalid_client_metadata"),
                               QStringLiteral("orders_customers: only an administrator may widen "
                                              "the customers a client acts for"),
                               400};
    }
    // The orders API's scopes only bound to customers the policy names: a registrant never
    // chooses whose orders it reaches, nor everyone's. A client an administrator left unbound
    // with such a scope keeps that (it may still bind itself).
    const auto ordersScope = [](const QString &s) {
        return s.startsWith(QLatin1String("orders:"));
    };
    const bool leftUnbound =
        current && current->ordersCustomers.isEmpty() &&
        std::any_of(current->scopes.cbegin(), current->scopes.cend(), ordersScope);
    if (!leftUnbound) {
        if (c.ordersCustomers.isEmpty() &&
            std::any_of(c.scopes.cbegin(), c.scopes.cend(), ordersScope))
            return Core::Error{QStringLiteral("invalid_client_metadata"),
                               QStringLiteral("orders_customers: a client with the orders API's "
                                              "scopes must be bound to customers the "
                                              "registration policy names (allowed: %1)")
                                   .arg(listText(customers)),
                               400};
        for (const QString &id : c.ordersCustomers)
            if (!customers.contains(id) && !(current && current->ordersCustomers.contains(id)))
                return refused("orders_customers", id, customers);
    }
    // Only an administrator lengthens a client's tokens or changes how it authenticates: an
    // update by the holder of the registration access token may neither undo an administrator's
    // shorter lifetime nor move the client off its key (or out of public use) onto a secret,
    // which the update would issue to that holder.
    if (current && c.accessTokenLifetime > current->accessTokenLifetime)
        return Core::Error{QStringLiteral("invalid_client_metadata"),
                           QStringLiteral("access_token_lifetime: only an administrator may "
                                          "lengthen a client's tokens (now %1 seconds)")
                               .arg(current->accessTokenLifetime),
                           400};
    // Nor does a registration give itself longer ones than the default (its id_tokens too).
    if (!current && c.accessTokenLifetime > kRegisteredLifetimeMax)
        return Core::Error{QStringLiteral("invalid_client_metadata"),
                           QStringLiteral("access_token_lifetime: a registration may ask for at "
                                          "most %1 seconds; only an administrator may lengthen "
                                          "a client's tokens")
                               .arg(kRegisteredLifetimeMax),
                           400};
    if (current && c.tokenEndpointAuthMethod != current->tokenEndpointAuthMethod)
        return Core::Error{QStringLiteral("invalid_client_metadata"),
                           QStringLiteral("token_endpoint_auth_method: only an administrator may "
                                          "change how a client authenticates (now %1)")
                               .arg(current->tokenEndpointAuthMethod),
                           400};
    if (c.resourceServer && !(current && current->resourceServer))
        return Core::Error{QStringLiteral("invalid_client_metadata"),
                           QStringLiteral("resource_server: only an administrator may let a client "
                                          "introspect other clients' tokens"),
                           400};
    return std::nullopt;
}

namespace {

// "http://127.0.0.1:PORT/rest" or "http://[::1]:PORT/rest" (any port, or none): the URI without
// its port ("http://127.0.0.1/rest"); empty for any other URI.
QString loopbackWithoutPort(const QString &uri)
{
    for (const QLatin1String host :
         {QLatin1String("http://127.0.0.1"), QLatin1String("http://[::1]")}) {
        if (!uri.startsWith(host))
            continue;
        qsizetype rest = host.size();
        if (rest < uri.size() && uri.at(rest) == QLatin1Char(':')) {
            qsizetype end = rest + 1;
            while (end < uri.size() && uri.at(end).isDigit())
                ++end;
            const qsizetype digits = end - rest - 1;
            if (digits < 1 || digits > 5 || uri.mid(rest + 1, digits).toInt() > 65535)
                return {};
            rest = end;
        }
        if (rest < uri.size() && uri.at(rest) != QLatin1Char('/') &&
            uri.at(rest) != QLatin1Char('?'))
            return {};
        return host + uri.mid(rest);
    }
    return {};
}

} // namespace

bool Client::allowsRedirectUri(const QString &uri) const
{
    if (redirectUris.contains(uri))
        return true;
    const QString asked = loopbackWithoutPort(uri);
    if (asked.isEmpty())
        return false;
    return std::any_of(redirectUris.begin(), redirectUris.end(),
                       [&asked](const QString &r) { return loopbackWithoutPort(r) == asked; });
}

QJsonObject Client::toJson() const
{
    QJsonObject o{{QStringLiteral("client_id"), clientId},
                  {QStringLiteral("client_name"), clientName},
                  {QStringLiteral("redirect_uris"), QJsonArray::fromStringList(redirectUris)},
                  {QStringLiteral("grant_types"), QJsonArray::fromStringList(grantTypes)},
                  {QStringLiteral("scope"), scopes.join(QLatin1Char(' '))},
                  {QStringLiteral("token_endpoint_auth_method"), tokenEndpointAuthMethod},
                  {QStringLiteral("contacts"), QJsonArray::fromStringList(contacts)},
                  {QStringLiteral("access_token_format"), accessTokenFormat},
                  {QStringLiteral("access_token_lifetime"), accessTokenLifetime},
                  {QStringLiteral("access_token_signed_response_alg"), accessTokenSigningAlg},
                  {QStringLiteral("id_token_signed_response_alg"), idTokenSigningAlg},
                  {QStringLiteral("client_id_issued_at"), createdAt / 1000}};
    if (!logoUri.isEmpty())
        o.insert(QStringLiteral("logo_uri"), logoUri);
    if (!postLogoutRedirectUris.isEmpty())
        o.insert(QStringLiteral("post_logout_redirect_uris"),
                 QJsonArray::fromStringList(postLogoutRedirectUris));
    if (!jwks.isEmpty())
        o.insert(QStringLiteral("jwks"), jwks);
    if (!jwksUri.isEmpty())
        o.insert(QStringLiteral("jwks_uri"), jwksUri);
    if (!tokenExchangeAudiences.isEmpty())
        o.insert(QStringLiteral("token_exchange_audiences"),
                 QJsonArray::fromStringList(tokenExchangeAudiences));
    if (!allowedResources.isEmpty())
        o.insert(QStringLiteral("allowed_resources"), QJsonArray::fromStringList(allowedResources));
    if (!ordersCustomers.isEmpty())
        o.insert(QStringLiteral("orders_customers"), QJsonArray::fromStringList(ordersCustomers));
    if (resourceServer)
        o.insert(QStringLiteral("resource_server"), true);
    if (clusterAccess)
        o.insert(QStringLiteral("cluster_access"), true);
    // RFC 7591 §3.2.1 (0: never), for the keys of a private_key_jwt client as for a secret.
    if (confidential())
        o.insert(QStringLiteral("client_secret_expires_at"), credentialsUntil / 1000);
    return o;
}

QJsonObject Client::toRecord() const
{
    QJsonObject o = toJson();
    if (registrationPolicy)
        o.insert(QStringLiteral("registration_policy"), registrationPolicy->toJson());
    return o;
}

ClientRegistry::ClientRegistry(Core::Database &database, Core::WriteQueue &writer,
                               const Core::Clock &clock)
    : m_database(database), m_writer(writer), m_clock(clock)
{}

qint64 ClientRegistry::nowMs() const
{
    return m_clock.now().toMSecsSinceEpoch();
}

const QStringList &ClientRegistry::supportedGrantTypes()
{
    static const QStringList g{QStringLiteral("authorization_code"),
                               QStringLiteral("client_credentials"),
                               QStringLiteral("refresh_token"),
                               QStringLiteral("password"),
                               QStringLiteral("urn:ietf:params:oauth:grant-type:device_code"),
                               QStringLiteral("urn:ietf:params:oauth:grant-type:jwt-bearer"),
                               QStringLiteral("urn:ietf:params:oauth:grant-type:token-exchange")};
    return g;
}

const QStringList &ClientRegistry::supportedAuthMethods()
{
    static const QStringList m{QStringLiteral("client_secret_basic"),
                               QStringLiteral("client_secret_post"),
                               QStringLiteral("private_key_jwt"), QStringLiteral("none")};
    return m;
}

Core::Result<Client> ClientRegistry::fromMetadata(const QJsonObject &m)
{
    Client c;
    const QJsonValue name = m.value(QStringLiteral("client_name"));
    if (!name.isString() || name.toString().trimmed().isEmpty() || name.toString().size() > 200)
        return metadataError(QStringLiteral("invalid_client_metadata"),
                             QStringLiteral("client_name is required: 1 to 200 characters"));
    c.clientName = name.toString().trimmed();
    if (const QString problem = Core::textProblem(c.clientName, true); !problem.isEmpty())
        return metadataError(QStringLiteral("invalid_client_metadata"),
                             QStringLiteral("client_name ") + problem);
    // Wrong types are refused, never read as the default: a scope given as a list was stored
    // as no scope (an update wiped the client's scopes), an auth method given as a number
    // became client_secret_basic, contacts given as a string none.
    for (const char *member : {"token_endpoint_auth_method", "scope", "access_token_format"}) {
        const QJsonValue v = m.value(QLatin1String(member));
        if (!v.isUndefined() && !v.isNull() && !v.isString())
            return metadataError(QStringLiteral("invalid_client_metadata"),
                                 QStringLiteral("%1 must be a string").arg(QLatin1String(member)));
    }
    if (const QJsonValue contacts = m.value(QStringLiteral("contacts"));
        !contacts.isUndefined() && !contacts.isNull() &&
        (!contacts.isArray() || std::any_of(contacts.toArray().begin(), contacts.toArray().end(),
                                            [](const QJsonValue &x) { return !x.isString(); })))
        return metadataError(QStringLiteral("invalid_client_metadata"),
                             QStringLiteral("contacts must be an array of strings"));
    c.tokenEndpointAuthMethod = m.value(QStringLiteral("token_endpoint_auth_method"))
                                    .toString(QStringLiteral("client_secret_basic"));
    if (!supportedAuthMethods().contains(c.tokenEndpointAuthMethod))
        return metadataError(QStringLiteral("invalid_client_metadata"),
                             QStringLiteral("token_endpoint_auth_method must be one of %1")
                                 .arg(supportedAuthMethods().join(QStringLiteral(", "))));
    const QJsonValue grants = m.value(QStringLiteral("grant_types"));
    if (!grants.isUndefined() && !grants.isArray())
        return metadataError(QStringLiteral("invalid_client_metadata"),
                             QStringLiteral("grant_types must be an array of strings"));
    c.grantTypes =
        grants.isUndefined() ? QStringList{QStringLiteral("authorization_code")} : strings(grants);
    for (const QString &g : std::as_const(c.grantTypes))
        if (!supportedGrantTypes().contains(g))
            return metadataError(QStringLiteral("invalid_client_metadata"),
                                 QStringLiteral("grant type '%1' is not supported").arg(g));
    // Grants whose only proof is the client's own: a public client's id is no proof (anyone
    // holding a leaked token could have it re-minted under that client's identity, audiences
    // and cluster access, by token exchange).
    for (const QString &g : {QStringLiteral("client_credentials"),
                             QStringLiteral("urn:ietf:params:oauth:grant-type:token-exchange")})
        if (!c.confidential() && c.grantTypes.contains(g))
            return metadataError(QStringLiteral("invalid_client_metadata"),
                                 QStringLiteral("%1 needs a confidential client "
                                                "(token_endpoint_auth_method other than none)")
                                     .arg(g));
    // redirect_uris, and post_logout_redirect_uris by the same rules.
    for (const char *member : {"redirect_uris", "post_logout_redirect_uris"}) {
        const QJsonValue uris = m.value(QLatin1String(member));
        if (!uris.isUndefined() && (!uris.isArray() || uris.toArray().size() > 100))
            return metadataError(QStringLiteral("invalid_redirect_uri"),
                                 QStringLiteral("%1 must be an array of URLs (at most 100)")
                                     .arg(QLatin1String(member)));
        QStringList &list = QLatin1String(member) == QLatin1String("redirect_uris")
                                ? c.redirectUris
                                : c.postLogoutRedirectUris;
        list = strings(uris);
        for (const QString &u : std::as_const(list)) {
            const QUrl url(u, QUrl::StrictMode);
            const bool loopback = url.host() == QLatin1String("127.0.0.1") ||
                                  url.host() == QLatin1String("localhost") ||
                                  url.host() == QLatin1String("::1");
            if (u.size() > 2048 || !url.isValid() || url.isRelative() || url.hasFragment() ||
                !namesItsHost(u, url) || (url.scheme() == QLatin1String("http") && !loopback) ||
                (url.scheme() != QLatin1String("https") && url.scheme() != QLatin1String("http") &&
                 !url.scheme().contains(QLatin1Char('.')))) // private-use schemes (RFC 8252 §7.1)
                return metadataError(
                    QStringLiteral("invalid_redirect_uri"),
                    QStringLiteral("'%1' is not an allowed %2 URI: absolute, no fragment, https "
                                   "(http only for loopback) or a reverse-domain private-use "
                                   "scheme")
                        .arg(u.left(2048), QLatin1String(member) == QLatin1String("redirect_uris")
                                               ? QLatin1String("redirect")
                                               : QLatin1String("post-logout redirect")));
        }
    }
    const bool needsRedirect = c.grantTypes.contains(QStringLiteral("authorization_code"));
    if (needsRedirect && c.redirectUris.isEmpty())
        return metadataError(QStringLiteral("invalid_redirect_uri"),
                             QStringLiteral("authorization_code needs at least one redirect_uri"));
    c.scopes =
        m.value(QStringLiteral("scope")).toString().split(QLatin1Char(' '), Qt::SkipEmptyParts);
    // RFC 6749 §3.3: a scope token is NQCHAR (printable ASCII but '"' and '\\'); at most 100
    // of at most 200 characters each (they travel in every token and on the consent page).
    static const QRegularExpression scopeToken(
        QStringLiteral("^[\\x21\\x23-\\x5B\\x5D-\\x7E]{1,200}\\z"));
    if (c.scopes.size() > 100 ||
        std::any_of(c.scopes.cbegin(), c.scopes.cend(),
                    [](const QString &s) { return !scopeToken.match(s).hasMatch(); }))
        return metadataError(QStringLiteral("invalid_client_metadata"),
                             QStringLiteral("scope must be at most 100 space-separated scope "
                                            "tokens of printable ASCII (not '\"' or '\\'), at "
                                            "most 200 characters each"));
    // The consent page shows the logo to every user of the client: an https image (http only
    // on loopback), never a data:, javascript: or other scheme, and of a sane length.
    const QJsonValue logo = m.value(QStringLiteral("logo_uri"));
    c.logoUri = logo.toString();
    if (!logo.isUndefined() && !logo.isNull()) {
        const QUrl url(c.logoUri, QUrl::StrictMode);
        const bool loopback = url.host() == QLatin1String("127.0.0.1") ||
                              url.host() == QLatin1String("localhost") ||
                              url.host() == QLatin1String("::1");
        if (!logo.isString() || c.logoUri.size() > 2048 || !url.isValid() || url.isRelative() ||
            !url.userInfo().isEmpty() ||
            !(url.scheme() == QLatin1String("https") ||
              (url.scheme() == QLatin1String("http") && loopback)))
            return metadataError(QStringLiteral("invalid_client_metadata"),
                                 QStringLiteral("logo_uri must be an https URL of at most 2048 "
                                                "characters (http only for loopback)"));
    }
    c.contacts = strings(m.value(QStringLiteral("contacts")));
    for (const QString &contact : std::as_const(c.contacts))
        if (const QString problem = Core::textProblem(contact, true); !problem.isEmpty())
            return metadataError(QStringLiteral("invalid_client_metadata"),
                                 QStringLiteral("contacts ") + problem);
    c.accessTokenFormat =
        m.value(QStringLiteral("access_token_format")).toString(QStringLiteral("jwt"));
    if (c.accessTokenFormat != QLatin1String("jwt") &&
        c.accessTokenFormat != QLatin1String("opaque"))
        return metadataError(QStringLiteral("invalid_client_metadata"),
                             QStringLiteral("access_token_format must be jwt or opaque"));
    const std::optional<qint64> lifetime =
        Core::integerOr(m.value(QStringLiteral("access_token_lifetime")), 3600);
    if (!lifetime || *lifetime < 30 || *lifetime > 86400)
        return metadataError(QStringLiteral("invalid_client_metadata"),
                             QStringLiteral("access_token_lifetime must be a whole number of "
                                            "seconds from 30 to 86400"));
    c.accessTokenLifetime = int(*lifetime);
    const QJsonValue jwks = m.value(QStringLiteral("jwks"));
    const QJsonValue jwksUri = m.value(QStringLiteral("jwks_uri"));
    if (!jwks.isUndefined() && !jwksUri.isUndefined())
        return metadataError(QStringLiteral("invalid_client_metadata"),
                             QStringLiteral("jwks and jwks_uri must not both be given"));
    if (!jwks.isUndefined()) {
        const QJsonArray keys = jwks.toObject().value(QStringLiteral("keys")).toArray();
        if (!jwks.isObject() || keys.isEmpty())
            return metadataError(QStringLiteral("invalid_client_metadata"),
                                 QStringLiteral("jwks must be a JWK Set {\"keys\": [...]}"));
        for (qsizetype i = 0; i < keys.size(); ++i)
            if (const auto problem = Crypto::Jws::registeredKeyProblem(keys.at(i).toObject()))
                return metadataError(QStringLiteral("invalid_client_metadata"),
                                     QStringLiteral("jwks: key %1: %2").arg(i + 1).arg(*problem));
        c.jwks = jwks.toObject();
    }
    if (!jwksUri.isUndefined()) {
        const QUrl u(jwksUri.toString(), QUrl::StrictMode);
        if (!jwksUri.isString() || !u.isValid() || u.scheme() != QLatin1String("https"))
            return metadataError(QStringLiteral("invalid_client_metadata"),
                                 QStringLiteral("jwks_uri must be an https URL"));
        c.jwksUri = jwksUri.toString();
    }
    if (c.tokenEndpointAuthMethod == QLatin1String("private_key_jwt") && c.jwks.isEmpty())
        return metadataError(QStringLiteral("invalid_client_metadata"),
                             QStringLiteral("private_key_jwt needs the client's public keys as "
                                            "jwks (jwks_uri is recorded but not fetched)"));
    const QJsonValue audiences = m.value(QStringLiteral("token_exchange_audiences"));
    if (!audiences.isUndefined() && !audiences.isArray())
        return metadataError(
            QStringLiteral("invalid_client_metadata"),
            QStringLiteral("token_exchange_audiences must be an array of strings"));
    c.tokenExchangeAudiences = strings(audiences);
    const QJsonValue resources = m.value(QStringLiteral("allowed_resources"));
    if (!resources.isUndefined() && !resources.isArray())
        return metadataError(QStringLiteral("invalid_client_metadata"),
                             QStringLiteral("allowed_resources must be an array of absolute URIs"));
    c.allowedResources = strings(resources);
    for (const QString &r : std::as_const(c.allowedResources)) {
        const QUrl u(r, QUrl::StrictMode);
        if (!u.isValid() || u.isRelative() || u.hasFragment())
            return metadataError(QStringLiteral("invalid_client_metadata"),
                                 QStringLiteral("allowed_resources: '%1' is not an absolute URI "
                                                "without a fragment")
                                     .arg(r.left(200)));
    }
    const QJsonValue customers = m.value(QStringLiteral("orders_customers"));
    if (!customers.isUndefined()) {
        const auto badCustomers = [] {
            return metadataError(QStringLiteral("invalid_client_metadata"),
                                 QStringLiteral("orders_customers must be an array of customer ids "
                                                "(UUIDs)"));
        };
        if (!customers.isArray())
            return badCustomers();
        for (const QJsonValue v : customers.toArray()) {
            const QUuid id = QUuid::fromString(v.toString());
            if (!v.isString() || id.isNull())
                return badCustomers();
            const QString canonical = id.toString(QUuid::WithoutBraces);
            if (!c.ordersCustomers.contains(canonical))
                c.ordersCustomers.append(canonical);
        }
        if (c.ordersCustomers.size() > 1000)
            return metadataError(QStringLiteral("invalid_client_metadata"),
                                 QStringLiteral("orders_customers: at most 1000 customers"));
    }
    const QJsonValue resourceServer = m.value(QStringLiteral("resource_server"));
    if (!resourceServer.isUndefined() && !resourceServer.isBool())
        return metadataError(QStringLiteral("invalid_client_metadata"),
                             QStringLiteral("resource_server must be true or false"));
    c.resourceServer = resourceServer.toBool();
    // Not metadata: a client may not grant itself the cluster (fail closed, named).
    if (m.contains(QStringLiteral("cluster_access")))
        return metadataError(QStringLiteral("invalid_client_metadata"),
                             QStringLiteral("cluster_access is not client metadata: an "
                                            "administrator sets it with PUT "
                                            "/admin/v1/clients/{id}/cluster-access"));
    for (const auto &[field, target] :
         {std::pair{"access_token_signed_response_alg", &c.accessTokenSigningAlg},
          std::pair{"id_token_signed_response_alg", &c.idTokenSigningAlg}}) {
        const QJsonValue v = m.value(QLatin1String(field));
        if (v.isUndefined())
            continue;
        if (v.toString() != QLatin1String("RS256") && v.toString() != QLatin1String("ES256"))
            return metadataError(QStringLiteral("invalid_client_metadata"),
                                 QStringLiteral("%1 must be RS256 or ES256").arg(field));
        *target = v.toString();
    }
    return c;
}

QString ClientRegistry::hashSecret(const QString &secret)
{
    // Secrets are 256 random bits, not passwords: a fast hash is enough (argon2id would cap
    // the token endpoint at a few requests per second).
    return QString::fromLatin1(
        Crypto::Digest::sha256(secret.toUtf8())
            .toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

bool ClientRegistry::secretMatches(const Client &c, const QString &secret)
{
    const QByteArray a = hashSecret(secret).toLatin1();
    const QByteArray b = c.secretHash.toLatin1();
    if (a.size() != b.size() || b.isEmpty())
        return false;
    unsigned char diff = 0;
    for (qsizetype i = 0; i < a.size(); ++i)
        diff |= static_cast<unsigned char>(a[i] ^ b[i]);
    return diff == 0;
}

std::function<void(const Core::Result<void> &)>
ClientRegistry::committed(std::shared_ptr<Registered> reg,
                          std::function<void(Core::Result<Registered>)> done)
{
    // The cached record is stale once the writer ran, whatever the outcome.
    return [this, reg = std::move(reg), done = std::move(done)](const Core::Result<void> &r) {
        forget(reg->client.clientId);
        if (!r)
            return done(r.error());
        done(*reg);
    };
}

void ClientRegistry::changedElsewhere(const QString &clientId)
{
    if (!clientId.isEmpty())
        return forget(clientId);
    QMutexLocker lock(&m_mutex);
    m_cache.clear();
    ++m_generation;
}

void ClientRegistry::forget(const QString &clientId)
{
    QMutexLocker lock(&m_mutex);
    m_cache.remove(clientId);
    ++m_generation;
}

void ClientRegistry::registerClient(Client client,
                                    std::function<void(Core::Result<Registered>)> done,
                                    bool dynamic, const QString &initialAccessTokenHash)
{
    auto reg = std::make_shared<Registered>();
    const qint64 now = nowMs();
    client.clientId = Crypto::Random::identifier(18);
    client.createdAt = now;
    if (client.usesSecret()) {
        reg->secret = Crypto::Random::token(32);
        client.secretHash = hashSecret(reg->secret);
    }
    if (dynamic)
        reg->registrationToken = Crypto::Random::token(32);
    client.selfRegistered = dynamic;
    // A dynamic registration's end is its initial access token's, read as it is spent; a
    // public client has no credential to end.
    if (dynamic || !client.confidential())
        client.credentialsUntil = 0;
    reg->client = client;
    m_writer.submit(
        [reg, now, initialAccessTokenHash](Core::WriteTransaction &tx) -> Core::Result<void> {
            if (!initialAccessTokenHash.isEmpty()) {
                QSqlQuery &spend = tx.query(QStringLiteral(
                    "UPDATE oauth_initial_access_tokens SET used_count = used_count + 1 WHERE "
                    "hash = ? AND expires_at > ? AND used_count < max_uses"));
                spend.addBindValue(initialAccessTokenHash);
                spend.addBindValue(now);
                if (!spend.exec())
                    return Core::WriteTransaction::sqlError(spend, "initial access token");
                if (spend.numRowsAffected() != 1)
                    return Core::Error{QStringLiteral("invalid_token"),
                                       QStringLiteral("the initial access token is unknown, "
                                                      "expired or used up"),
                                       401};
                // An initial access token an expiring admin token created: what it registers
                // ends with that admin token (docs/admin-tokens.md).
                Core::Statement &until = tx.stmt("SELECT credentials_until FROM "
                                                 "oauth_initial_access_tokens WHERE hash = ?");
                const bool found = until.bind(1, initialAccessTokenHash).next();
                if (!until.ok())
                    return Core::WriteTransaction::sqlError(until, "initial access token");
                if (found) {
                    reg->client.credentialsUntil = until.isNull(0) ? 0 : until.int64(0);
                    until.next(); // done with it
                }
            }
            QSqlQuery &q = tx.query(QStringLiteral(
                "INSERT INTO oauth_clients (client_id, secret_hash, record, created_at, "
                "updated_at, registration_token_hash) VALUES (?, ?, ?, ?, ?, ?)"));
            q.addBindValue(reg->client.clientId);
            q.addBindValue(reg->client.secretHash);
            q.addBindValue(QString::fromUtf8(
                QJsonDocument(reg->client.toRecord()).toJson(QJsonDocument::Compact)));
            q.addBindValue(now);
            q.addBindValue(now);
            q.addBindValue(reg->registrationToken.isEmpty()
                               ? QVariant()
                               : QVariant(hashSecret(reg->registrationToken)));
            if (!q.exec())
                return Core::WriteTransaction::sqlError(q, "insert client");
            return {};
        },
        committed(reg, std::move(done)));
}

void ClientRegistry::update(const QString &clientId, Client metadata,
                            std::function<void(Core::Result<Registered>)> done, By by,
                            const QString &registrationToken, StoredCheck recheck)
{
    const auto current = find(clientId);
    if (!current)
        return done(Core::Error{QStringLiteral("client-not-found"),
                                QStringLiteral("no client %1").arg(clientId), 404});
    auto reg = std::make_shared<Registered>();
    metadata.clientId = clientId;
    metadata.createdAt = current->createdAt;
    metadata.secretHash = current->secretHash;
    if (metadata.usesSecret() && current->secretHash.isEmpty()) {
        reg->secret = Crypto::Random::token(32);
        metadata.secretHash = hashSecret(reg->secret);
    } else if (!metadata.usesSecret()) {
        metadata.secretHash.clear();
    }
    reg->client = metadata;
    rewrite(reg, std::move(done), by, registrationToken, std::move(recheck));
}

void ClientRegistry::rewrite(const std::shared_ptr<Registered> &reg,
                             std::function<void(Core::Result<Registered>)> done, By by,
                             const QString &registrationToken, StoredCheck recheck)
{
    const qint64 now = nowMs();
    m_writer.submit(
        [reg, now, by, registrationToken,
         recheck = std::move(recheck)](Core::WriteTransaction &tx) -> Core::Result<void> {
            // The flag is the administrator's: a metadata update keeps what is stored now, and
            // the secret too unless this update issues one (a rotation may have committed since
            // the record was read). So is the registration's policy. A registrant's update of a
            // client allowed to act for the cluster is refused here too: an administrator may
            // have allowed it since the caller's check.
            const StoredOwned stored = storedOwned(tx, reg->client.clientId);
            if (recheck && stored.found)
                if (auto e = recheck(stored.client))
                    return *e;
            if (by == By::Registrant && stored.found &&
                !stored.registrationTokenIs(registrationToken))
                return registrationTokenWithdrawn();
            if (by == By::Registrant && stored.clusterAccess)
                return clusterClientRefused();
            // The registrant's bound as stored now: an administrator's change that committed
            // since the caller's check may have lowered it.
            if (by == By::Registrant && stored.registrationPolicy)
                if (auto e = stored.registrationPolicy->check(reg->client, &stored.client))
                    return *e;
            reg->client.clusterAccess = stored.clusterAccess;
            reg->client.registrationPolicy = stored.registrationPolicy;
            reg->client.selfRegistered = stored.registrantManages;
            // An administrator's change of a registered client is its registrant's new bound:
            // what the administrator took away (a grant, a scope, a redirect URI) the holder of
            // the registration access token cannot put back (it may still narrow).
            if (by == By::Admin && stored.registrantManages) {
                RegistrationPolicy bound{reg->client.grantTypes,
                                         reg->client.scopes,
                                         reg->client.tokenExchangeAudiences,
                                         reg->client.redirectUris,
                                         reg->client.ordersCustomers,
                                         reg->client.allowedResources,
                                         QStringList()};
                for (const QJsonValue k : reg->client.jwks.value(QStringLiteral("keys")).toArray())
                    bound.keys->append(Crypto::jwkThumbprint(k.toObject()));
                reg->client.registrationPolicy = bound;
            }
            if (reg->secret.isEmpty() && reg->client.usesSecret())
                reg->client.secretHash = stored.secretHash;
            reg->client.credentialsUntil =
                by == By::Registrant
                    ? stored.client.credentialsUntil
                    : credentialsEnd(stored.client, reg->client, !reg->secret.isEmpty(),
                                     reg->client.credentialsUntil);
            QSqlQuery &q =
                tx.query(QStringLiteral("UPDATE oauth_clients SET secret_hash = ?, "
                                        "record = ?, updated_at = ? WHERE client_id = ?"));
            q.addBindValue(reg->client.secretHash.isEmpty() ? QVariant()
                                                            : QVariant(reg->client.secretHash));
            q.addBindValue(QString::fromUtf8(
                QJsonDocument(reg->client.toRecord()).toJson(QJsonDocument::Compact)));
            q.addBindValue(now);
            q.addBindValue(reg->client.clientId);
            if (!q.exec())
                return Core::WriteTransaction::sqlError(q, "update client");
            if (q.numRowsAffected() != 1)
                return Core::Error{QStringLiteral("client-not-found"),
                                   QStringLiteral("no client %1").arg(reg->client.clientId), 404};
            // A scope taken away: the client's own tokens, codes and consents lose it, stored
            // (giving it back later gives it to new grants only); what gateways exchanged from
            // its tokens carries the gateway's client and its scopes, so it goes.
            QStringList removed = stored.client.scopes;
            removed.removeIf([&](const QString &s) { return reg->client.scopes.contains(s); });
            if (!removed.isEmpty() && !narrowClientGrants(tx, reg->client.clientId, removed))
                return Core::Error{QStringLiteral("revocation-failed"),
                                   QStringLiteral("cannot take the scopes from the client's "
                                                  "tokens and consents"),
                                   500};
            // offline_access or the refresh_token grant taken: the refresh families end for
            // good (docs/oauth.md), so that giving it back does not bring them back, leaked
            // ones included.
            const QString refreshGrant = QStringLiteral("refresh_token");
            const bool refreshTaken = stored.client.grantTypes.contains(refreshGrant) &&
                                      !reg->client.grantTypes.contains(refreshGrant);
            if ((removed.contains(QStringLiteral("offline_access")) || refreshTaken) &&
                !revokeClientRefreshTokens(tx, reg->client.clientId, now))
                return Core::Error{QStringLiteral("revocation-failed"),
                                   QStringLiteral("cannot revoke the client's refresh tokens"),
                                   500};
            if (!removed.isEmpty() && !revokeClientDescendants(tx, reg->client.clientId, now))
                return Core::Error{QStringLiteral("revocation-failed"),
                                   QStringLiteral("cannot revoke the exchanged tokens"), 500};
            // The device grant taken: the codes handed out and not redeemed yet are denied
            // (taking it is how an administrator stops a device-code phishing run; giving it
            // back must not revive them).
            if (stored.client.grantTypes.contains(kDeviceCodeGrant) &&
                !reg->client.grantTypes.contains(kDeviceCodeGrant))
                if (auto r = denyDeviceCodes(tx, reg->client.clientId); !r)
                    return r;
            return {};
        },
        committed(reg, std::move(done)));
}

Core::Result<std::optional<Client>>
ClientRegistry::findByRegistrationToken(const QString &clientId, const QString &token) const
{
    if (token.isEmpty())
        return std::optional<Client>();
    const QSqlDatabase db = m_database.connection();
    if (!db.isOpen())
        return Core::Database::readFailed(db, QString());
    QSqlQuery q(db);
    q.prepare(
        QStringLiteral("SELECT registration_token_hash FROM oauth_clients WHERE client_id = ?"));
    q.addBindValue(clientId);
    if (!q.exec())
        return Core::Database::readFailed(db, q.lastError().text());
    if (!q.next() || q.value(0).isNull())
        return std::optional<Client>();
    Client probe;
    probe.secretHash = q.value(0).toString();
    if (!secretMatches(probe, token))
        return std::optional<Client>();
    return lookup(clientId);
}

QJsonObject ClientRegistry::InitialAccessToken::toJson() const
{
    QJsonObject o{{QStringLiteral("id"), id},
                  {QStringLiteral("createdAt"), Core::isoTimeMs(createdAt)},
                  {QStringLiteral("expiresAt"), Core::isoTimeMs(expiresAt)},
                  {QStringLiteral("maxUses"), maxUses},
                  {QStringLiteral("usedCount"), usedCount},
                  {QStringLiteral("policy"),
                   policy ? QJsonValue(policy->toJson()) : QJsonValue(QJsonValue::Null)}};
    // The clients it registers: when their credentials end (an expiring admin token's).
    if (credentialsUntil > 0)
        o.insert(QStringLiteral("credentialsUntil"), Core::isoTimeMs(credentialsUntil));
    if (!token.isEmpty())
        o.insert(QStringLiteral("token"), token);
    return o;
}

void ClientRegistry::createInitialAccessToken(
    qint64 lifetimeMs, int maxUses, std::optional<RegistrationPolicy> policy,
    qint64 credentialsUntil, std::function<void(Core::Result<InitialAccessToken>)> done)
{
    auto t = std::make_shared<InitialAccessToken>();
    t->id = Crypto::Random::uuid();
    t->token = Crypto::Random::token(32);
    t->createdAt = nowMs();
    t->expiresAt = t->createdAt + lifetimeMs;
    if (credentialsUntil > 0)
        t->expiresAt = std::min(t->expiresAt, credentialsUntil);
    t->credentialsUntil = credentialsUntil;
    t->maxUses = maxUses;
    t->policy = std::move(policy);
    m_writer.submit(
        [t](Core::WriteTransaction &tx) -> Core::Result<void> {
            QSqlQuery &q = tx.query(QStringLiteral(
                "INSERT INTO oauth_initial_access_tokens (id, hash, created_at, expires_at, "
                "max_uses, policy, credentials_until) VALUES (?, ?, ?, ?, ?, ?, ?)"));
            for (const QVariant &v :
                 {QVariant(t->id), QVariant(hashSecret(t->token)), QVariant(t->createdAt),
                  QVariant(t->expiresAt), QVariant(t->maxUses),
                  t->policy
                      ? QVariant(QString::fromUtf8(
                            QJsonDocument(t->policy->toJson()).toJson(QJsonDocument::Compact)))
                      : QVariant(),
                  t->credentialsUntil > 0 ? QVariant(t->credentialsUntil) : QVariant()})
                q.addBindValue(v);
            if (!q.exec())
                return Core::WriteTransaction::sqlError(q, "initial access token");
            return {};
        },
        [t, done = std::move(done)](const Core::Result<void> &r) {
            if (!r)
                return done(r.error());
            done(*t);
        });
}

namespace {

ClientRegistry::InitialAccessToken initialAccessTokenFrom(const QSqlQuery &q)
{
    ClientRegistry::InitialAccessToken t;
    t.id = q.value(0).toString();
    t.createdAt = q.value(1).toLongLong();
    t.expiresAt = q.value(2).toLongLong();
    t.maxUses = q.value(3).toInt();
    t.usedCount = q.value(4).toInt();
    t.credentialsUntil = q.value(6).toLongLong();
    if (!q.value(5).isNull()) {
        auto p = RegistrationPolicy::fromJson(
            QJsonDocument::fromJson(q.value(5).toByteArray()).object(), RegistrationPolicy{});
        // Fail closed: a policy that no longer reads is no policy, and never the server's.
        if (!p)
            return ClientRegistry::InitialAccessToken{};
        t.policy = *p;
    }
    return t;
}

} // namespace

Core::Result<QList<ClientRegistry::InitialAccessToken>> ClientRegistry::initialAccessTokens() const
{
    const QSqlDatabase db = m_database.connection();
    if (!db.isOpen())
        return Core::Database::readFailed(db, QString());
    QList<InitialAccessToken> out;
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral(
            "SELECT id, created_at, expires_at, max_uses, used_count, policy, "
            "credentials_until FROM oauth_initial_access_tokens ORDER BY created_at")))
        return Core::Database::readFailed(db, q.lastError().text());
    while (q.next())
        out.append(initialAccessTokenFrom(q));
    return out;
}

Core::Result<std::optional<ClientRegistry::InitialAccessToken>>
ClientRegistry::usableInitialAccessToken(const QString &hash, qint64 now) const
{
    const QSqlDatabase db = m_database.connection();
    if (!db.isOpen())
        return Core::Database::readFailed(db, QString());
    QSqlQuery q(db);
    q.prepare(QStringLiteral(
        "SELECT id, created_at, expires_at, max_uses, used_count, policy, "
        "credentials_until FROM oauth_initial_access_tokens WHERE hash = ? AND expires_at > ? "
        "AND used_count < max_uses"));
    q.addBindValue(hash);
    q.addBindValue(now);
    if (!q.exec())
        return Core::Database::readFailed(db, q.lastError().text());
    if (!q.next())
        return std::optional<InitialAccessToken>();
    auto t = initialAccessTokenFrom(q);
    if (t.id.isEmpty()) // its policy did not read
        return std::optional<InitialAccessToken>();
    return std::optional<InitialAccessToken>(std::move(t));
}

void ClientRegistry::deleteInitialAccessToken(const QString &id,
                                              std::function<void(Core::Result<void>)> done)
{
    m_writer.submit(
        [id](Core::WriteTransaction &tx) -> Core::Result<void> {
            return changeExisting(
                tx, QStringLiteral("DELETE FROM oauth_initial_access_tokens WHERE id = ?"), {id},
                Core::Error{QStringLiteral("initial-access-token-not-found"),
                            QStringLiteral("no initial access token %1").arg(id), 404});
        },
        std::move(done));
}

void ClientRegistry::remove(const QString &clientId, std::function<void(Core::Result<void>)> done,
                            By by, const QString &registrationToken, StoredCheck recheck)
{
    const qint64 now = nowMs();
    m_writer.submit(
        [clientId, now, by, registrationToken,
         recheck = std::move(recheck)](Core::WriteTransaction &tx) -> Core::Result<void> {
            if (by == By::Registrant || recheck) {
                const StoredOwned stored = storedOwned(tx, clientId);
                if (recheck && stored.found)
                    if (auto e = recheck(stored.client))
                        return *e;
                if (by == By::Registrant && stored.found &&
                    !stored.registrationTokenIs(registrationToken))
                    return registrationTokenWithdrawn();
                if (by == By::Registrant && stored.clusterAccess)
                    return clusterClientRefused();
            }
            if (auto r = changeExisting(
                    tx, QStringLiteral("DELETE FROM oauth_clients WHERE client_id = ?"), {clientId},
                    Core::Error{QStringLiteral("client-not-found"),
                                QStringLiteral("no client %1").arg(clientId), 404});
                !r)
                return r;
            QSqlQuery &t = tx.query(QStringLiteral("UPDATE oauth_tokens SET revoked_at = ? WHERE "
                                                   "client_id = ? AND revoked_at IS NULL"));
            t.addBindValue(now);
            t.addBindValue(clientId);
            if (!t.exec())
                return Core::WriteTransaction::sqlError(t, "revoke tokens");
            // And what other clients (a gateway) exchanged from them.
            if (!revokeClientDescendants(tx, clientId, now))
                return Core::Error{QStringLiteral("revocation-failed"),
                                   QStringLiteral("revoking the tokens exchanged from %1's "
                                                  "failed")
                                       .arg(clientId),
                                   500};
            // Its users' consents go too (the admin API listed them for a client gone).
            Core::Statement &consents = tx.stmt("DELETE FROM oauth_consents WHERE client_id = ?");
            if (!consents.bind(1, clientId).exec())
                return Core::WriteTransaction::sqlError(consents, "delete the client's consents");
            return denyDeviceCodes(tx, clientId);
        },
        [this, clientId, done = std::move(done)](const Core::Result<void> &r) {
            forget(clientId);
            done(r);
        });
}

void ClientRegistry::rotateSecret(const QString &clientId,
                                  std::function<void(Core::Result<Registered>)> done,
                                  StoredCheck recheck, qint64 credentialsUntil)
{
    auto client = find(clientId);
    if (!client)
        return done(Core::Error{QStringLiteral("client-not-found"),
                                QStringLiteral("no client %1").arg(clientId), 404});
    auto reg = std::make_shared<Registered>();
    reg->secret = Crypto::Random::token(32);
    reg->client = *client;
    reg->client.secretHash = hashSecret(reg->secret);
    // A registered client's registration access token is rotated with the secret (RFC 7592
    // §3 lets the server do so): whoever held the old pair could otherwise have a secret issued
    // again (an update to "none" and back). Both go to the administrator, once.
    reg->registrationToken = Crypto::Random::token(32);
    const QString registrationTokenHash = hashSecret(reg->registrationToken);
    const qint64 now = nowMs();
    m_writer.submit(
        [reg, now, registrationTokenHash, credentialsUntil,
         recheck = std::move(recheck)](Core::WriteTransaction &tx) -> Core::Result<void> {
            const StoredOwned stored = storedOwned(tx, reg->client.clientId);
            if (recheck && stored.found)
                if (auto e = recheck(stored.client))
                    return *e;
            // As stored now (an update that committed since find() may have made it public).
            if (stored.found && !stored.client.usesSecret()) {
                // No secret to rotate. A registered client's registration access token is
                // rotated alone: a leaked one is withdrawn without deleting the client.
                if (!stored.registrantManages)
                    return Core::Error{
                        QStringLiteral("public-client"),
                        (stored.client.confidential()
                             ? QStringLiteral("client %1 uses private_key_jwt and has no secret")
                             : QStringLiteral("client %1 is public and has no secret"))
                            .arg(reg->client.clientId),
                        409};
                reg->secret.clear();
                QSqlQuery &q = tx.query(QStringLiteral("UPDATE oauth_clients SET updated_at = ?, "
                                                       "registration_token_hash = ? WHERE "
                                                       "client_id = ?"));
                q.addBindValue(now);
                q.addBindValue(registrationTokenHash);
                q.addBindValue(reg->client.clientId);
                if (!q.exec())
                    return Core::WriteTransaction::sqlError(q, "rotate registration token");
                return {};
            }
            if (!stored.registrantManages)
                reg->registrationToken.clear();
            // The new secret is the client's only credential: under a bound it ends by then,
            // without one it ends never. The record as stored now carries the end.
            Client record = stored.client;
            record.credentialsUntil =
                credentialsEnd(stored.client, stored.client, true, credentialsUntil);
            reg->client.credentialsUntil = record.credentialsUntil;
            QSqlQuery &q = tx.query(QStringLiteral(
                "UPDATE oauth_clients SET secret_hash = ?, record = ?, updated_at = ?, "
                "registration_token_hash = CASE WHEN registration_token_hash IS NULL THEN NULL "
                "ELSE ? END WHERE client_id = ?"));
            q.addBindValue(reg->client.secretHash);
            q.addBindValue(
                QString::fromUtf8(QJsonDocument(record.toRecord()).toJson(QJsonDocument::Compact)));
            q.addBindValue(now);
            q.addBindValue(registrationTokenHash);
            q.addBindValue(reg->client.clientId);
            if (!q.exec())
                return Core::WriteTransaction::sqlError(q, "rotate secret");
            return {};
        },
        committed(reg, std::move(done)));
}

void ClientRegistry::setClusterAccess(const QString &clientId, bool allowed,
                                      std::function<void(Core::Result<Registered>)> done)
{
    auto client = find(clientId);
    if (!client)
        return done(Core::Error{QStringLiteral("client-not-found"),
                                QStringLiteral("no client %1").arg(clientId), 404});
    auto reg = std::make_shared<Registered>();
    reg->client = *client;
    reg->client.clusterAccess = allowed;
    const qint64 now = nowMs();
    m_writer.submit(
        [reg, now](Core::WriteTransaction &tx) -> Core::Result<void> {
            // The record as stored now (a metadata update may have committed since find()),
            // with only the flag changed.
            // Locked on PostgreSQL until the commit (as in update()): a narrowing another
            // instance commits meanwhile is seen here or waits, never written back over.
            QSqlQuery &read = tx.query(
                tx.isPostgres() ? QStringLiteral("SELECT secret_hash, record, "
                                                 "registration_token_hash IS NOT NULL FROM "
                                                 "oauth_clients WHERE client_id = ? FOR UPDATE")
                                : QStringLiteral("SELECT secret_hash, record, "
                                                 "registration_token_hash IS NOT NULL FROM "
                                                 "oauth_clients WHERE client_id = ?"));
            read.addBindValue(reg->client.clientId);
            if (!read.exec() || !read.next())
                return Core::Error{QStringLiteral("client-not-found"),
                                   QStringLiteral("no client %1").arg(reg->client.clientId), 404};
            const bool allowed = reg->client.clusterAccess;
            reg->client = fromRow(reg->client.clientId, read.value(0).toString(),
                                  read.value(1).toByteArray(), read.value(2).toBool());
            const bool withdrawn = reg->client.clusterAccess && !allowed;
            reg->client.clusterAccess = allowed;
            QSqlQuery &q = tx.query(QStringLiteral(
                "UPDATE oauth_clients SET record = ?, updated_at = ? WHERE client_id = ?"));
            q.addBindValue(QString::fromUtf8(
                QJsonDocument(reg->client.toRecord()).toJson(QJsonDocument::Compact)));
            q.addBindValue(now);
            q.addBindValue(reg->client.clientId);
            if (!q.exec())
                return Core::WriteTransaction::sqlError(q, "cluster access");
            // Taken away: what gateways exchanged from this client's tokens goes too (its own
            // tokens no longer reach the cluster, as the cluster asks for the flag; an
            // exchanged one carries its gateway's client, which may still have it).
            if (withdrawn && !revokeClientDescendants(tx, reg->client.clientId, now))
                return Core::Error{QStringLiteral("revocation-failed"),
                                   QStringLiteral("cannot revoke the exchanged tokens"), 500};
            return {};
        },
        committed(reg, std::move(done)));
}

std::optional<Client> ClientRegistry::find(const QString &clientId) const
{
    auto found = lookup(clientId);
    return found ? *found : std::nullopt;
}

Core::Result<std::optional<Client>> ClientRegistry::lookup(const QString &clientId) const
{
    quint64 generation = 0;
    {
        QMutexLocker lock(&m_mutex);
        if (auto it = m_cache.constFind(clientId); it != m_cache.constEnd())
            return *it;
        generation = m_generation;
    }
    const QSqlDatabase db = m_database.connection();
    if (!db.isOpen())
        return Core::Database::readFailed(db, QString());
    QSqlQuery q(db);
    q.prepare(QStringLiteral("SELECT secret_hash, record, registration_token_hash IS NOT NULL "
                             "FROM oauth_clients WHERE client_id = ?"));
    q.addBindValue(clientId);
    // A read that failed (a lost database connection) is not "no such client": that would
    // answer invalid_client, and stay in the cache.
    if (!q.exec())
        return Core::Database::readFailed(db, q.lastError().text());
    std::optional<Client> c;
    if (q.next())
        c = fromRow(clientId, q.value(0).toString(), q.value(1).toByteArray(), q.value(2).toBool());
    QMutexLocker lock(&m_mutex);
    // A change committed while this read ran: what was read may be the old record (or a
    // deleted client), so it answers this call but is not cached.
    if (generation != m_generation)
        return c;
    if (m_cache.size() > 10'000)
        m_cache.clear();
    m_cache.insert(clientId, c);
    return c;
}

Core::Result<QList<Client>> ClientRegistry::all() const
{
    const QSqlDatabase db = m_database.connection();
    if (!db.isOpen())
        return Core::Database::readFailed(db, QString());
    QList<Client> out;
    QSqlQuery q(db);
    if (!q.exec(QStringLiteral(
            "SELECT client_id, secret_hash, record, registration_token_hash IS NOT NULL FROM "
            "oauth_clients ORDER BY created_at")))
        return Core::Database::readFailed(db, q.lastError().text());
    while (q.next())
        out.append(fromRow(q.value(0).toString(), q.value(1).toString(), q.value(2).toByteArray(),
                           q.value(3).toBool()));
    return out;
}

} // namespace Gatehouse::OAuth
