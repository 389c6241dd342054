<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>ConnectDialog</name>
    <message>
        <source>Connect to a Gatehouse server</source>
        <translation>Mit einem Gatehouse-Server verbinden</translation>
    </message>
    <message>
        <source>Admin URL</source>
        <translation>Admin-URL</translation>
    </message>
    <message>
        <source>Admin token</source>
        <translation>Admin-Token</translation>
    </message>
    <message>
        <source>Contents of &lt;data-dir&gt;/admin-token</source>
        <translation>Inhalt von &lt;data-dir&gt;/admin-token</translation>
    </message>
    <message>
        <source>The server refused the token: %1</source>
        <translation>Der Server hat das Token abgelehnt: %1</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>Verbinden</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
</context>
<context>
    <name>ConnectionIndicator</name>
    <message>
        <source>Online</source>
        <translation>Online</translation>
    </message>
    <message>
        <source>Connecting</source>
        <translation>Verbinde</translation>
    </message>
    <message>
        <source>Offline</source>
        <translation>Offline</translation>
    </message>
    <message>
        <source>Unauthorized</source>
        <translation>Nicht autorisiert</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>Nicht verbunden</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Embedded</source>
        <translation>Eingebettet</translation>
    </message>
    <message>
        <source>Remote</source>
        <translation>Entfernt</translation>
    </message>
    <message>
        <source>Connection: %1</source>
        <translation>Verbindung: %1</translation>
    </message>
</context>
<context>
    <name>ConsoleHeader</name>
    <message>
        <source>Gatehouse</source>
        <translation>Gatehouse</translation>
    </message>
    <message>
        <source>Server URL %1</source>
        <translation>Server-URL %1</translation>
    </message>
    <message>
        <source>v%1</source>
        <translation>v%1</translation>
    </message>
    <message>
        <source>Server version %1</source>
        <translation>Serverversion %1</translation>
    </message>
    <message>
        <source>Connect…</source>
        <translation>Verbinden…</translation>
    </message>
    <message>
        <source>Connect to a server</source>
        <translation>Mit einem Server verbinden</translation>
    </message>
    <message>
        <source>Choose the admin URL and token</source>
        <translation>Admin-URL und Token wählen</translation>
    </message>
</context>
<context>
    <name>DashboardPage</name>
    <message>
        <source>Connecting to %1…</source>
        <translation>Verbinde mit %1…</translation>
    </message>
    <message>
        <source>The backend is unreachable (%1). Reconnecting automatically…</source>
        <translation>Das Backend ist nicht erreichbar (%1). Die Verbindung wird automatisch wiederhergestellt…</translation>
    </message>
    <message>
        <source>The server refused the admin token: %1</source>
        <translation>Der Server hat das Admin-Token abgelehnt: %1</translation>
    </message>
    <message>
        <source>Not connected to a Gatehouse server.</source>
        <translation>Mit keinem Gatehouse-Server verbunden.</translation>
    </message>
    <message>
        <source>Retry now</source>
        <translation>Jetzt erneut versuchen</translation>
    </message>
    <message>
        <source>Connect…</source>
        <translation>Verbinden…</translation>
    </message>
    <message>
        <source>Connect to a server</source>
        <translation>Mit einem Server verbinden</translation>
    </message>
    <message>
        <source>Uptime</source>
        <translation>Laufzeit</translation>
    </message>
    <message>
        <source>Version %1</source>
        <translation>Version %1</translation>
    </message>
    <message>
        <source>Events received</source>
        <translation>Empfangene Ereignisse</translation>
    </message>
    <message>
        <source>Last at %1</source>
        <translation>Zuletzt um %1</translation>
    </message>
    <message>
        <source>None yet</source>
        <translation>Noch keine</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>Datenbank</translation>
    </message>
    <message>
        <source>Schema %1 · %2</source>
        <translation>Schema %1 · %2</translation>
    </message>
    <message>
        <source>TLS</source>
        <translation>TLS</translation>
    </message>
    <message>
        <source>requests · %1</source>
        <translation>Anfragen · %1</translation>
    </message>
    <message>
        <source>Latest events</source>
        <translation>Neueste Ereignisse</translation>
    </message>
    <message numerus="yes">
        <source>%n shown</source>
        <translation>
            <numerusform>%n angezeigt</numerusform>
            <numerusform>%n angezeigt</numerusform>
        </translation>
    </message>
    <message>
        <source>Show stats events</source>
        <translation>Statistik-Ereignisse zeigen</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Clear the event list</source>
        <translation>Ereignisliste leeren</translation>
    </message>
    <message>
        <source>No events yet. They appear here as the backend reports them.</source>
        <translation>Noch keine Ereignisse. Sie erscheinen hier, sobald das Backend sie meldet.</translation>
    </message>
</context>
<context>
    <name>EventDelegate</name>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2: %3</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::AdminClient</name>
    <message>
        <source>The event stream stopped responding</source>
        <translation>Der Ereignisstrom antwortet nicht mehr</translation>
    </message>
    <message>
        <source>Service API</source>
        <translation>Service-API</translation>
    </message>
    <message>
        <source>Cluster API</source>
        <translation>Cluster-API</translation>
    </message>
    <message>
        <source>Admin API</source>
        <translation>Admin-API</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 T. %2 Std.</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 Std. %2 Min.</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 Min. %2 s</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Not a valid admin URL: %1</source>
        <translation>Keine gültige Admin-URL: %1</translation>
    </message>
    <message>
        <source>An admin token is required</source>
        <translation>Ein Admin-Token ist erforderlich</translation>
    </message>
    <message>
        <source>The server sent an unreadable status: %1</source>
        <translation>Der Server hat einen unlesbaren Status gesendet: %1</translation>
    </message>
    <message>
        <source>The server closed the event stream</source>
        <translation>Der Server hat den Ereignisstrom geschlossen</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::EventListModel</name>
    <message>
        <source>Backend started</source>
        <translation>Backend gestartet</translation>
    </message>
    <message>
        <source>Backend %1 started</source>
        <translation>Backend %1 gestartet</translation>
    </message>
    <message>
        <source>Requests: %1</source>
        <translation>Anfragen: %1</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::NavigationModel</name>
    <message>
        <source>Dashboard</source>
        <translation>Übersicht</translation>
    </message>
    <message>
        <source>Listeners, request counters and the live event stream.</source>
        <translation>Listener, Anfragezähler und der Live-Ereignisstrom.</translation>
    </message>
    <message>
        <source>Clients</source>
        <translation>Clients</translation>
    </message>
    <message>
        <source>The OAuth 2.0 / OpenID Connect client registry: register clients, grant types, redirect URIs and secrets.</source>
        <translation>Die Client-Registry für OAuth 2.0 / OpenID Connect: Clients registrieren, Grant-Typen, Redirect-URIs und Secrets.</translation>
    </message>
    <message>
        <source>Arrives with the OAuth authorization server.</source>
        <translation>Kommt mit dem OAuth-Autorisierungsserver.</translation>
    </message>
    <message>
        <source>Tokens &amp; JWT</source>
        <translation>Tokens &amp; JWT</translation>
    </message>
    <message>
        <source>Issued tokens, introspection and revocation, signing keys and JWKS, and a JWT decoder.</source>
        <translation>Ausgestellte Tokens, Introspektion und Widerruf, Signaturschlüssel und JWKS sowie ein JWT-Decoder.</translation>
    </message>
    <message>
        <source>Arrives with the OAuth token issuer.</source>
        <translation>Kommt mit dem OAuth-Token-Aussteller.</translation>
    </message>
    <message>
        <source>Orders</source>
        <translation>Bestellungen</translation>
    </message>
    <message>
        <source>Customer orders and their status lifecycle, live as they change.</source>
        <translation>Kundenbestellungen und ihr Statusverlauf, live bei jeder Änderung.</translation>
    </message>
    <message>
        <source>Arrives with the order service.</source>
        <translation>Kommt mit dem Bestelldienst.</translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation>Zustellungen</translation>
    </message>
    <message>
        <source>Webhook deliveries: every attempt with its signature, response and retry schedule.</source>
        <translation>Webhook-Zustellungen: jeder Versuch mit Signatur, Antwort und Wiederholungsplan.</translation>
    </message>
    <message>
        <source>Arrives with the webhook dispatcher.</source>
        <translation>Kommt mit dem Webhook-Dispatcher.</translation>
    </message>
    <message>
        <source>Cluster nodes</source>
        <translation>Cluster-Knoten</translation>
    </message>
    <message>
        <source>Nodes and their labels, with live NodeRestriction verdicts.</source>
        <translation>Knoten und ihre Labels, mit Live-Entscheidungen von NodeRestriction.</translation>
    </message>
    <message>
        <source>Arrives with the cluster API.</source>
        <translation>Kommt mit der Cluster-API.</translation>
    </message>
    <message>
        <source>RBAC</source>
        <translation>RBAC</translation>
    </message>
    <message>
        <source>Roles, bindings and the explained trace of every authorization decision.</source>
        <translation>Rollen, Bindungen und die erklärte Spur jeder Autorisierungsentscheidung.</translation>
    </message>
    <message>
        <source>Arrives with cluster authorization.</source>
        <translation>Kommt mit der Cluster-Autorisierung.</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Listeners, TLS certificates, the database and the admin token.</source>
        <translation>Listener, TLS-Zertifikate, die Datenbank und das Admin-Token.</translation>
    </message>
    <message>
        <source>Arrives with the configuration API.</source>
        <translation>Kommt mit der Konfigurations-API.</translation>
    </message>
</context>
<context>
    <name>Main</name>
    <message>
        <source>Gatehouse</source>
        <translation>Gatehouse</translation>
    </message>
</context>
<context>
    <name>NavigationRail</name>
    <message>
        <source>Pages</source>
        <translation>Seiten</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>StatTile</name>
    <message>
        <source>%1: %2, %3</source>
        <translation>%1: %2, %3</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
</context>
</TS>
