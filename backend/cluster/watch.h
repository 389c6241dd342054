#pragma once

#include "cluster/objectstore.h"
#include "core/httpmessage.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <functional>
#include <memory>
#include <optional>

namespace Gatehouse::Cluster {

// One event of a watch stream: ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.
struct WatchEvent
{
    QString type;
    QJsonObject object;  // the object as stored (without kind/apiVersion), or a Status for ERROR
    qint64 revision = 0; // of the change (or the object, for the first events); 0: none
};

struct WatchOptions
{
    QString resource;      // plural: "nodes"
    QString namespaceName; // empty: every namespace
    QString name;          // empty: every object (/watch/.../NAME or fieldSelector=metadata.name)
    std::function<bool(const QJsonObject &)> matches; // label and field selectors
    // nullopt: the current objects first, as ADDED (resourceVersion "" or "0"); otherwise the
    // changes after this resourceVersion (410 Expired, as an ERROR event, when it is older
    // than the window).
    std::optional<qint64> since;
    bool sendInitialEvents = false; // with since: the current objects first anyway
    bool bookmarks = false;         // allowWatchBookmarks: a BOOKMARK every bookmarkSeconds
    int bookmarkSeconds = 60;
    static constexpr int kMaxTimeoutSeconds = 1800; // also the default
    int timeoutSeconds = kMaxTimeoutSeconds;
    // Whether the requester may still watch: nullopt, or the Status (a 401 when its credential
    // no longer authenticates, a 403 when it is no longer allowed) the stream ends with, as an
    // ERROR event. Called in the stream's thread every recheckSeconds and after
    // WatchHub::recheck(); none: the watch goes on to its timeout.
    std::function<std::optional<QJsonObject>()> recheck;
    static constexpr int kRecheckSeconds = 5;
    int recheckSeconds = kRecheckSeconds;
    // One event as it goes on the wire (a JSON line, a Table, ...); the object of a BOOKMARK is
    // {"metadata":{"resourceVersion":...}} and of an ERROR a Status.
    std::function<QByteArray(const WatchEvent &)> encode;
    // Watchers with the same encoding write the same bytes for the same event: it is encoded
    // once for all of them ("json:v1/nodes", "table:v1/nodes"). Empty: never shared.
    QString encoding;
};

// Watch for the cluster's objects, as kube-apiserver's watch cache: every change of the store,
// in resourceVersion order, to each watcher whose filter it passes; a change that takes an
// object into or out of a watcher's selector is ADDED or DELETED for it. The last `window`
// changes are kept, so a watch may resume from a resourceVersion inside that window.
//
// Memory stays flat: each watcher holds at most `queueLimit` events not yet written; one that
// falls further behind is ended with an ERROR event (410 Expired) and closed, and its client
// lists and watches again, as with kube.
class WatchHub
{
public:
    // `windowBytes`: the window is also bounded by its objects' size (compact JSON).
    explicit WatchHub(ObjectStore &store, int window = 5000, int queueLimit = 1000,
                      qsizetype windowBytes = 64 * 1024 * 1024);
    ~WatchHub();
    WatchHub(const WatchHub &) = delete;
    WatchHub &operator=(const WatchHub &) = delete;

    // Serves a watch on stream (call it in the stream's thread, from the response's stream
    // callback). Ends at timeoutSeconds, when the client goes, or when it falls behind.
    void start(Core::HttpStream *stream, WatchOptions options);

    int watcherCount() const;
    // Checks every watch's requester again now (WatchOptions::recheck: the RBAC policy or the
    // settings changed), each in its own thread. Callable from any thread.
    void recheck();

    struct State;
    class Watcher;

private:
    ObjectStore &m_store;
    std::shared_ptr<State> m_state;
};

} // namespace Gatehouse::Cluster
