#pragma once

// Inside the cluster API, for its own files only (clusterapi.cpp and clusterapi_*.cpp): the
// context a request carries through the chain, and the helpers those files share.
#include "cluster/clusterapi.h"
#include "cluster/clusterlogging.h"
#include "cluster/kubeconfig.h"
#include "cluster/openapi.h"
#include "cluster/patch.h"
#include "cluster/protobuf.h"
#include "cluster/resources.h"
#include "cluster/schemas.h"
#include "cluster/selector.h"
#include "cluster/serversideapply.h"
#include "cluster/strictjson.h"
#include "core/clock.h"
#include "core/eventbus.h"
#include "crypto/random.h"

#include <QJsonDocument>
#include <QLoggingCategory>
#include <QRandomGenerator>
#include <QTcpServer>

namespace Gatehouse::Cluster {

struct ClusterApi::Context
{
    Core::HttpRequest request;
    Core::Responder respond;
    bool pretty = false;
    bool dryRun = false;            // nothing is stored (?dryRun=All, and the admin API's explain)
    bool explaining = false;        // the admin API's explain: not a request anybody made
    bool authorizationOnly = false; // stop once authorization has decided
    bool askWebhooks = true;        // explain for a caller without cluster:write: not asked
    bool anonymousRefused = false;  // acting as anonymous while anonymous access is off
    std::optional<UserInfo> actAs;
    QString impersonator; // who sent Impersonate-* headers (the request acts as another)
    // When a credential this request issues must end at the latest (ms since the epoch; 0: no
    // bound): the admin token's expiry, for requests made through the admin API.
    qint64 credentialsUntilMs = 0;
    RequestTrace trace;
    Attributes attributes;
    std::shared_ptr<const AuthorizerChain> authorizer;
    std::shared_ptr<const AdmissionChain> admission;
    std::shared_ptr<const WebhookSet> webhooks;
    std::function<void(const Core::HttpResponse &, const RequestTrace &)> onDone;
    QStringList warnings; // sent as "Warning: 299 - ..." headers
};

namespace ApiInternal {

constexpr int kRecentMax = 500;
inline const QString kServiceName = QStringLiteral("kubernetes");

QJsonArray toArray(const QStringList &l);

QStringList toStrings(const QJsonValue &v);

QString decisionName(Decision d);

QJsonObject userJson(const UserInfo &u);

QJsonObject metaOf(const QJsonObject &o);

QString nameOf(const QJsonObject &o);

void setMeta(QJsonObject &o, const QString &key, const QJsonValue &v);

QString timestamp(const QDateTime &t);

bool isJsonContentType(const QByteArray &ct);

bool isProtobufContentType(const QByteArray &ct);

// client-go's typed clients send "application/vnd.kubernetes.protobuf,application/json":
// protobuf first is a preference, answered in protobuf where the kind has a form.
bool prefersProtobuf(const QByteArray &accept);

// An object, a list or a review answer in the client's preferred form.
Core::HttpResponse typedResponse(const Core::HttpRequest &req, int status,
                                 const QJsonObject &object, bool pretty);

// "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList" anywhere in Accept.
bool wantsAggregatedDiscovery(const QByteArray &accept);

bool wantsTable(const QByteArray &accept);

// Accept headers that allow JSON (or say nothing).
bool acceptsJson(const QByteArray &accept);

// Accept headers that allow an object answer: JSON, or protobuf alone.
bool acceptsObject(const QByteArray &accept);

QString quotedList(const QStringList &l);

// Go's %+v of a PolicyRule, as escalation errors print it.
QString goRule(const PolicyRule &r);

QString generatedSuffix();

QJsonObject nodeStatus(const QString &name, int index);

QJsonObject typed(const ResourceType &t, QJsonObject o);

// The object a create, update, review or TokenRequest carries: JSON, or protobuf where the
// kind has a decoder; anything else 415, malformed 400.
std::variant<QJsonObject, Status> requestObject(const Core::HttpRequest &req, bool allowProtobuf,
                                                bool allowEmpty);

// fieldValidation: Strict refuses unknown and duplicate fields (400), Warn (the default) drops
// them with a warning each, Ignore drops them (a duplicate's last value wins). prefix: kube's
// words before a create or update's error.
std::optional<Status> fieldValidation(const QString &directive, const QStringList &unknown,
                                      const QStringList &duplicates, const QString &prefix,
                                      QStringList *warnings);

// ?dryRun: absent (a real write), "All" (sets *dryRun), anything else kube's 422 on the
// request's options kind ("CreateOptions", "UpdateOptions", "DeleteOptions").
std::optional<Status> dryRunOption(const Core::HttpRequest &req, const QString &optionsKind,
                                   bool *dryRun);

// The 403 Status Kubernetes answers when authorization refuses: "<resource> \"<name>\" is
// forbidden: User ... cannot ...", or "forbidden: ..." for a non-resource path.
Status authorizationRefusal(const Attributes &a, const QString &name, const QString &reason);

} // namespace ApiInternal
} // namespace Gatehouse::Cluster
