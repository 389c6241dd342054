// Composition root: decides the mode, resolves the configuration, starts the backend
// (headless or on a worker thread) and the console.

#include "admin/backend.h"
#include "cli/admincli.h"
#include "cli/connection.h"
#include "core/config.h"
#include "embeddedbackend.h"
#include "platform/platform.h"
#include "signalwatcher.h"

#ifdef GATEHOUSE_WITH_CONSOLE
#include "console/console.h"
#include <QApplication>
#endif

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QProcessEnvironment>
#include <QTextStream>
#include <QUrl>

#include <cstdio>
#include <memory>

using namespace Gatehouse;

namespace {

bool hasArg(int argc, char **argv, const char *name)
{
    for (int i = 1; i < argc; ++i)
        if (qstrcmp(argv[i], name) == 0)
            return true;
    return false;
}

bool displayAvailable()
{
#if defined(Q_OS_UNIX) && !defined(Q_OS_MACOS)
    const auto env = QProcessEnvironment::systemEnvironment();
    return env.contains(QStringLiteral("QT_QPA_PLATFORM")) ||
           !env.value(QStringLiteral("DISPLAY")).isEmpty() ||
           !env.value(QStringLiteral("WAYLAND_DISPLAY")).isEmpty();
#else
    return true;
#endif
}

void setIdentity()
{
    QCoreApplication::setApplicationName(QStringLiteral("gatehouse"));
    QCoreApplication::setApplicationVersion(QStringLiteral(GATEHOUSE_VERSION));
}

int runHeadless(QCoreApplication &app, const Core::Config &config)
{
    // Watching before the start: the start writes ports.json, and a supervisor may stop the
    // process as soon as it sees it. A signal during the start waits in the watcher's socket
    // and stops the backend cleanly once the event loop runs.
    SignalWatcher watcher;
    Admin::Backend backend(config);
    if (auto r = backend.start(); !r) {
        QTextStream(stderr) << "gatehouse: " << r.error().message << "\n";
        return 1;
    }
    int exitCode = 0;
    QObject::connect(&watcher, &SignalWatcher::terminationRequested, &app, [&](int) {
        static bool stopping = false;
        if (stopping) { // a second signal: stop waiting for in-flight requests
            exitCode = 1;
            app.quit();
            return;
        }
        stopping = true;
        backend.stop([&app] { app.quit(); });
    });
    QObject::connect(&backend, &Admin::Backend::fatalError, &app, [&](const QString &) {
        exitCode = 1;
        backend.stop([&app] { app.quit(); });
    });
    app.exec();
    return exitCode;
}

} // namespace

int main(int argc, char **argv)
{
    setIdentity();
    const QProcessEnvironment env = QProcessEnvironment::systemEnvironment();

    if (argc > 1 && qstrcmp(argv[1], "admin") == 0) {
        QCoreApplication app(argc, argv);
        setIdentity();
        QStringList args = app.arguments();
        args.removeAt(1); // "admin"
        QTextStream out(stdout), err(stderr);
        const int code = Cli::runAdminCli(args, env, out, err);
        Platform::settleEndingThreads(); // the HTTPS worker thread's OpenSSL state
        return code;
    }

    bool headless = hasArg(argc, argv, "--headless");
    const bool helpOrVersion = hasArg(argc, argv, "--help") || hasArg(argc, argv, "-h") ||
                               hasArg(argc, argv, "--version") || hasArg(argc, argv, "-v");
#ifndef GATEHOUSE_WITH_CONSOLE
    headless = true;
#endif
    bool fellBackToHeadless = false;
    if (!headless && !helpOrVersion && !displayAvailable()) {
        headless = true;
        fellBackToHeadless = true;
    }

    // Headless, nothing needs GLib's main loop (no platform integration): Qt's own Unix event
    // dispatcher costs less per wake-up, on every thread (3-5 % of the server's CPU per
    // token measured). A QT_NO_GLIB that is set, to anything, is left as it is.
    if (headless && !qEnvironmentVariableIsSet("QT_NO_GLIB"))
        qputenv("QT_NO_GLIB", "1");

    std::unique_ptr<QCoreApplication> app;
#ifdef GATEHOUSE_WITH_CONSOLE
    if (!headless && !helpOrVersion)
        app = std::make_unique<QApplication>(argc, argv);
    else
#endif
        app = std::make_unique<QCoreApplication>(argc, argv);
    setIdentity();

    QCommandLineParser parser;
    parser.setApplicationDescription(QStringLiteral(
        "Gatehouse: administration console for API security with an embedded server.\n\n"
        "Modes:\n"
        "  gatehouse                          console with the embedded backend\n"
        "  gatehouse --headless               backend only (stops cleanly on SIGTERM/SIGINT)\n"
        "  gatehouse --connect URL [--admin-token T]   console for a remote backend\n"
        "  gatehouse admin <noun> <verb>      command line over a running backend's admin API\n\n"
        "Every option below can also be set as GATEHOUSE_<OPTION> (e.g. GATEHOUSE_SERVICE_PORT)\n"
        "or as a key of the JSON config file; flags win over the environment, which wins over\n"
        "the config file."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addOptions({
        {QStringLiteral("headless"), QStringLiteral("Run the backend only, without the console.")},
        {QStringLiteral("connect"),
         QStringLiteral("Run the console only, against the admin API at URL."),
         QStringLiteral("url")},
        {QStringLiteral("admin-token"),
         QStringLiteral(
             "Admin token for --connect (else --admin-token-file, GATEHOUSE_ADMIN_TOKEN, "
             "GATEHOUSE_ADMIN_TOKEN_FILE, else a dialog). On the command line other "
             "local users can see it: prefer the file or the variable."),
         QStringLiteral("token")},
        {QStringLiteral("admin-token-file"),
         QStringLiteral("Read the admin token for --connect from this file (its first line)."),
         QStringLiteral("file")},
        {QStringLiteral("config"), QStringLiteral("JSON config file."), QStringLiteral("file")},
        {QStringLiteral("lang"),
         QStringLiteral("Console language: en, de or fr (default: the one chosen in the "
                        "console, else the system's)."),
         QStringLiteral("lang")},
        {QStringLiteral("theme"),
         QStringLiteral("Console colours: system, light or dark (default: the one chosen in the "
                        "console, else the system's)."),
         QStringLiteral("theme")},
    });
    for (const Core::ConfigOption &o : Core::ConfigResolver::options())
        parser.addOption(QCommandLineOption(o.key, o.description, o.valueName));
    parser.process(*app);

    QMap<QString, QString> cli;
    if (parser.isSet(QStringLiteral("config")))
        cli.insert(QStringLiteral("config"), parser.value(QStringLiteral("config")));
    for (const Core::ConfigOption &o : Core::ConfigResolver::options())
        if (parser.isSet(o.key))
            cli.insert(o.key, o.valueName.isEmpty() ? QStringLiteral("true") : parser.value(o.key));
    auto config = Core::ConfigResolver::resolve(cli, env);
    if (!config) {
        QTextStream(stderr) << "gatehouse: " << config.error().message << "\n";
        return 2;
    }

    if (headless) {
        if (parser.isSet(QStringLiteral("connect"))) {
            QTextStream(stderr)
                << "gatehouse: --connect needs a display (it runs only the console)\n";
            return 2;
        }
        if (fellBackToHeadless)
            QTextStream(stderr) << "gatehouse: no display found; running headless\n";
        const int code = runHeadless(*app, *config); // the backend and its threads are gone
        Platform::settleEndingThreads();
        return code;
    }

#ifdef GATEHOUSE_WITH_CONSOLE
    auto &gui = static_cast<QApplication &>(*app);
    Console::ConsoleOptions options;
    if (parser.isSet(QStringLiteral("lang"))) {
        options.language = parser.value(QStringLiteral("lang"));
        if (!Console::languages().contains(options.language)) {
            QTextStream(stderr) << "gatehouse: --lang takes one of "
                                << Console::languages().join(QStringLiteral(", ")) << ", got '"
                                << options.language << "'\n";
            return 2;
        }
    }
    if (parser.isSet(QStringLiteral("theme"))) {
        options.theme = parser.value(QStringLiteral("theme"));
        if (!Console::themes().contains(options.theme)) {
            QTextStream(stderr) << "gatehouse: --theme takes one of "
                                << Console::themes().join(QStringLiteral(", ")) << ", got '"
                                << options.theme << "'\n";
            return 2;
        }
    }
    // Before the embedded backend starts (it writes ports.json): see runHeadless.
    SignalWatcher watcher;
    QObject::connect(&watcher, &SignalWatcher::terminationRequested, &gui,
                     [] { QCoreApplication::quit(); });
    std::unique_ptr<EmbeddedBackend> embedded;
    if (parser.isSet(QStringLiteral("connect"))) {
        options.adminUrl = QUrl(parser.value(QStringLiteral("connect")));
        if (!options.adminUrl.isValid() ||
            !options.adminUrl.scheme().startsWith(QLatin1String("http"))) {
            QTextStream(stderr) << "gatehouse: --connect needs an http(s) URL, got '"
                                << parser.value(QStringLiteral("connect")) << "'\n";
            return 2;
        }
        QString why;
        const auto named =
            Cli::namedToken(parser.value(QStringLiteral("admin-token")),
                            parser.value(QStringLiteral("admin-token-file")), env, &why);
        if (!named) {
            QTextStream(stderr) << "gatehouse: " << why << "\n";
            return 2;
        }
        options.adminToken = *named;
    } else {
        embedded = std::make_unique<EmbeddedBackend>(*config);
        if (auto r = embedded->start(); !r) {
            QTextStream(stderr) << "gatehouse: " << r.error().message << "\n";
            return 1;
        }
        options.adminUrl = QUrl(embedded->adminUrl());
        options.adminToken = embedded->adminToken();
        options.embedded = true;
    }
    const int code = Console::run(gui, options);
    if (embedded)
        embedded->stop();
    embedded.reset();
    Platform::settleEndingThreads();
    return code;
#else
    return 0;
#endif
}
