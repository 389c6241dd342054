<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AttemptDelegate</name>
    <message>
        <source>Attempt %1 at %2: %3</source>
        <translation>Versuch %1 um %2: %3</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>#%1</translation>
    </message>
</context>
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
    <name>ConsoleFormat</name>
    <message>
        <source>%1 ms</source>
        <translation>%1 ms</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
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
    <name>CustomersPage</name>
    <message>
        <source>Each customer signs its webhooks with its own whsec_ secret.</source>
        <translation>Jeder Kunde signiert seine Webhooks mit einem eigenen whsec_-Secret.</translation>
    </message>
    <message>
        <source>%1 shown</source>
        <translation>%1 angezeigt</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Neu laden</translation>
    </message>
    <message>
        <source>Reload the customers</source>
        <translation>Die Kunden neu laden</translation>
    </message>
    <message>
        <source>New customer…</source>
        <translation>Neuer Kunde…</translation>
    </message>
    <message>
        <source>Create a customer</source>
        <translation>Einen Kunden anlegen</translation>
    </message>
    <message>
        <source>Customers</source>
        <translation>Kunden</translation>
    </message>
    <message>
        <source>%1 · since %2 · orders %3</source>
        <translation>%1 · seit %2 · Bestellungen %3</translation>
    </message>
    <message>
        <source>rotated %1 · old secret valid until %2</source>
        <translation>rotiert %1 · altes Secret gültig bis %2</translation>
    </message>
    <message>
        <source>secret rotated %1</source>
        <translation>Secret rotiert %1</translation>
    </message>
    <message>
        <source>Rotate secret…</source>
        <translation>Secret rotieren…</translation>
    </message>
    <message>
        <source>Rotate the webhook secret of %1</source>
        <translation>Das Webhook-Secret von %1 rotieren</translation>
    </message>
    <message>
        <source>Rotate the webhook secret of %1?</source>
        <translation>Das Webhook-Secret von %1 rotieren?</translation>
    </message>
    <message>
        <source>A new secret is made and shown once. The current one keeps working for a grace period so the customer can switch.</source>
        <translation>Ein neues Secret wird erzeugt und einmal angezeigt. Das bisherige bleibt für eine Übergangszeit gültig, damit der Kunde umstellen kann.</translation>
    </message>
    <message>
        <source>Rotate</source>
        <translation>Rotieren</translation>
    </message>
    <message>
        <source>Rotate the secret</source>
        <translation>Das Secret rotieren</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
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
    <name>DeliveriesPage</name>
    <message>
        <source>Disabled endpoints: their deliveries fail until they are enabled again</source>
        <translation>Deaktivierte Endpunkte: ihre Zustellungen scheitern, bis sie wieder aktiviert sind</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Disabled %1: %2</source>
        <translation>Deaktiviert %1: %2</translation>
    </message>
    <message>
        <source>Enable</source>
        <translation>Aktivieren</translation>
    </message>
    <message>
        <source>Enable %1</source>
        <translation>%1 aktivieren</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Zustand</translation>
    </message>
    <message>
        <source>Filter by state</source>
        <translation>Nach Zustand filtern</translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n fehlgeschlagen</numerusform>
            <numerusform>%n fehlgeschlagen</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 shown</source>
        <translation>%1 angezeigt</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Neu laden</translation>
    </message>
    <message>
        <source>Reload the deliveries</source>
        <translation>Die Zustellungen neu laden</translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation>Zustellungen</translation>
    </message>
    <message>
        <source>No deliveries in this state.</source>
        <translation>Keine Zustellungen in diesem Zustand.</translation>
    </message>
    <message>
        <source>No webhook deliveries yet. Orders with a status callback URL get one per status change.</source>
        <translation>Noch keine Webhook-Zustellungen. Bestellungen mit Status-Callback-URL erhalten eine pro Statuswechsel.</translation>
    </message>
    <message>
        <source>Select a delivery to see every attempt with its response.</source>
        <translation>Wählen Sie eine Zustellung, um jeden Versuch mit seiner Antwort zu sehen.</translation>
    </message>
    <message>
        <source>Delivery</source>
        <translation>Zustellung</translation>
    </message>
    <message>
        <source>Redeliver</source>
        <translation>Erneut zustellen</translation>
    </message>
    <message>
        <source>Send this delivery again</source>
        <translation>Diese Zustellung erneut senden</translation>
    </message>
    <message>
        <source>Queue it again with the same webhook-id</source>
        <translation>Mit derselben webhook-id erneut einreihen</translation>
    </message>
    <message>
        <source>Webhook id</source>
        <translation>Webhook-ID</translation>
    </message>
    <message>
        <source>Reports</source>
        <translation>Meldet</translation>
    </message>
    <message>
        <source>%1 of order %2 (#%3)</source>
        <translation>%1 der Bestellung %2 (#%3)</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Last answer</source>
        <translation>Letzte Antwort</translation>
    </message>
    <message>
        <source>not attempted yet</source>
        <translation>noch nicht versucht</translation>
    </message>
    <message>
        <source>HTTP %1 in %2</source>
        <translation>HTTP %1 in %2</translation>
    </message>
    <message>
        <source>No answer</source>
        <translation>Keine Antwort</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Next attempt</source>
        <translation>Nächster Versuch</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>Abgeschlossen</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Versuche</translation>
    </message>
    <message>
        <source>No attempts yet.</source>
        <translation>Noch keine Versuche.</translation>
    </message>
    <message>
        <source>Failed (tries: %1): %2</source>
        <translation>Fehlgeschlagen (Versuche: %1): %2</translation>
    </message>
</context>
<context>
    <name>DeliveryDelegate</name>
    <message>
        <source>Delivery of %1, failed: %2</source>
        <translation>Zustellung von %1, fehlgeschlagen: %2</translation>
    </message>
    <message>
        <source>Delivery of %1, %2</source>
        <translation>Zustellung von %1, %2</translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>No answer</source>
        <translation>Keine Antwort</translation>
    </message>
    <message>
        <source>next try %1</source>
        <translation>nächster Versuch %1</translation>
    </message>
    <message>
        <source>tries %1</source>
        <translation>Versuche %1</translation>
    </message>
</context>
<context>
    <name>DeliveryState</name>
    <message>
        <source>Pending</source>
        <translation>Ausstehend</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>Erfolgreich</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>All states</source>
        <translation>Alle Zustände</translation>
    </message>
</context>
<context>
    <name>ErrorBanner</name>
    <message>
        <source>Error</source>
        <translation>Fehler</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Dismiss the error</source>
        <translation>Den Fehler ausblenden</translation>
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
    <message>
        <source>Not connected to a Gatehouse server</source>
        <translation>Nicht mit einem Gatehouse-Server verbunden</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::AttemptListModel</name>
    <message>
        <source>Manual</source>
        <translation>Manuell</translation>
    </message>
    <message>
        <source>Scheduled</source>
        <translation>Geplant</translation>
    </message>
    <message>
        <source>No answer</source>
        <translation>Keine Antwort</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::CustomerListModel</name>
    <message>
        <source>All customers</source>
        <translation>Alle Kunden</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::EndpointListModel</name>
    <message>
        <source>Disabled</source>
        <translation>Deaktiviert</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>Aktiv</translation>
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
    <name>HistoryTimeline</name>
    <message>
        <source>Status history</source>
        <translation>Statusverlauf</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1 um %2</translation>
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
    <name>NewCustomerDialog</name>
    <message>
        <source>New customer</source>
        <translation>Neuer Kunde</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>e.g. Biergarten Nord</source>
        <translation>z. B. Biergarten Nord</translation>
    </message>
    <message>
        <source>Customer name</source>
        <translation>Kundenname</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Anlegen</translation>
    </message>
    <message>
        <source>Create the customer</source>
        <translation>Den Kunden anlegen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
</context>
<context>
    <name>OrderDelegate</name>
    <message>
        <source>Order %1, %2, %3</source>
        <translation>Bestellung %1, %2, %3</translation>
    </message>
    <message>
        <source>Lines %1 · Qty %2</source>
        <translation>Positionen %1 · Menge %2</translation>
    </message>
</context>
<context>
    <name>OrderStatus</name>
    <message>
        <source>New</source>
        <translation>Neu</translation>
    </message>
    <message>
        <source>Validation pending</source>
        <translation>Prüfung läuft</translation>
    </message>
    <message>
        <source>Validated</source>
        <translation>Geprüft</translation>
    </message>
    <message>
        <source>Validation exception</source>
        <translation>Prüfung fehlgeschlagen</translation>
    </message>
    <message>
        <source>Allocation pending</source>
        <translation>Reservierung läuft</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>Reserviert</translation>
    </message>
    <message>
        <source>Pending inventory</source>
        <translation>Wartet auf Bestand</translation>
    </message>
    <message>
        <source>Allocation exception</source>
        <translation>Reservierung fehlgeschlagen</translation>
    </message>
    <message>
        <source>Picked up</source>
        <translation>Abgeholt</translation>
    </message>
    <message>
        <source>Delivered</source>
        <translation>Geliefert</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Storniert</translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation>Alle Status</translation>
    </message>
</context>
<context>
    <name>OrdersPage</name>
    <message>
        <source>Status</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Filter by status</source>
        <translation>Nach Status filtern</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>Filter by customer</source>
        <translation>Nach Kunde filtern</translation>
    </message>
    <message>
        <source>%1 shown</source>
        <translation>%1 angezeigt</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Neu laden</translation>
    </message>
    <message>
        <source>Reload the orders</source>
        <translation>Die Bestellungen neu laden</translation>
    </message>
    <message>
        <source>Place test order…</source>
        <translation>Testbestellung aufgeben…</translation>
    </message>
    <message>
        <source>Place a test order</source>
        <translation>Eine Testbestellung aufgeben</translation>
    </message>
    <message>
        <source>Orders</source>
        <translation>Bestellungen</translation>
    </message>
    <message>
        <source>No orders match the filter.</source>
        <translation>Keine Bestellung passt zum Filter.</translation>
    </message>
    <message>
        <source>No orders yet. Place a test order to see one go through its lifecycle.</source>
        <translation>Noch keine Bestellungen. Geben Sie eine Testbestellung auf, um ihren Lebenszyklus zu verfolgen.</translation>
    </message>
    <message>
        <source>Select an order to see its lines, status history and webhook deliveries.</source>
        <translation>Wählen Sie eine Bestellung, um Positionen, Statusverlauf und Webhook-Zustellungen zu sehen.</translation>
    </message>
    <message>
        <source>Order %1</source>
        <translation>Bestellung %1</translation>
    </message>
    <message>
        <source>Pick up</source>
        <translation>Abholen</translation>
    </message>
    <message>
        <source>Mark the order as picked up</source>
        <translation>Die Bestellung als abgeholt markieren</translation>
    </message>
    <message>
        <source>Deliver</source>
        <translation>Liefern</translation>
    </message>
    <message>
        <source>Mark the order as delivered</source>
        <translation>Die Bestellung als geliefert markieren</translation>
    </message>
    <message>
        <source>Cancel order</source>
        <translation>Stornieren</translation>
    </message>
    <message>
        <source>Cancel the order</source>
        <translation>Die Bestellung stornieren</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <source>Order id</source>
        <translation>Bestell-ID</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Erstellt</translation>
    </message>
    <message>
        <source>Last change</source>
        <translation>Letzte Änderung</translation>
    </message>
    <message>
        <source>%1 (version %2)</source>
        <translation>%1 (Version %2)</translation>
    </message>
    <message>
        <source>Status callback</source>
        <translation>Status-Callback</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>Positionen</translation>
    </message>
    <message>
        <source>Beer</source>
        <translation>Bier</translation>
    </message>
    <message>
        <source>UPC</source>
        <translation>UPC</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>Reserviert</translation>
    </message>
    <message>
        <source>Not in the catalog</source>
        <translation>Nicht im Katalog</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>No lines.</source>
        <translation>Keine Positionen.</translation>
    </message>
    <message>
        <source>Status history</source>
        <translation>Statusverlauf</translation>
    </message>
    <message>
        <source>Webhook deliveries</source>
        <translation>Webhook-Zustellungen</translation>
    </message>
    <message>
        <source>No deliveries yet.</source>
        <translation>Noch keine Zustellungen.</translation>
    </message>
    <message>
        <source>This order has no status callback URL, so no webhooks are sent.</source>
        <translation>Diese Bestellung hat keine Status-Callback-URL, daher werden keine Webhooks gesendet.</translation>
    </message>
    <message>
        <source>Customers</source>
        <translation>Kunden</translation>
    </message>
</context>
<context>
    <name>SecretRevealDialog</name>
    <message>
        <source>New webhook secret for %1</source>
        <translation>Neues Webhook-Secret für %1</translation>
    </message>
    <message>
        <source>Webhook secret for %1</source>
        <translation>Webhook-Secret für %1</translation>
    </message>
    <message>
        <source>The customer&apos;s receiver verifies the webhook-signature header with this secret.</source>
        <translation>Der Empfänger des Kunden prüft mit diesem Secret den Header webhook-signature.</translation>
    </message>
    <message>
        <source>Webhook secret</source>
        <translation>Webhook-Secret</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Kopiert</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Kopieren</translation>
    </message>
    <message>
        <source>Copy the secret to the clipboard</source>
        <translation>Das Secret in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <source>You won&apos;t see this secret again. Gatehouse shows it only now; copy it and hand it to the customer over a safe channel.</source>
        <translation>Sie sehen dieses Secret nicht wieder. Gatehouse zeigt es nur jetzt; kopieren Sie es und geben Sie es dem Kunden über einen sicheren Kanal.</translation>
    </message>
    <message>
        <source>The previous secret keeps working until %1; until then every webhook carries a signature for each.</source>
        <translation>Das bisherige Secret bleibt bis %1 gültig; bis dahin trägt jeder Webhook eine Signatur für beide.</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Fertig</translation>
    </message>
    <message>
        <source>Close; the secret is not shown again</source>
        <translation>Schließen; das Secret wird nicht wieder angezeigt</translation>
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
<context>
    <name>TestOrderDialog</name>
    <message>
        <source>Place a test order</source>
        <translation>Eine Testbestellung aufgeben</translation>
    </message>
    <message>
        <source>Status changes go to the built-in demo receiver, never to a customer.</source>
        <translation>Statuswechsel gehen an den eingebauten Demo-Empfänger, nie an einen Kunden.</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Referenz</translation>
    </message>
    <message>
        <source>Optional, e.g. TRAINING-7</source>
        <translation>Optional, z. B. TRAINING-7</translation>
    </message>
    <message>
        <source>Customer reference</source>
        <translation>Kundenreferenz</translation>
    </message>
    <message>
        <source>Beers</source>
        <translation>Biere</translation>
    </message>
    <message>
        <source>Lines %1 · Qty %2</source>
        <translation>Positionen %1 · Menge %2</translation>
    </message>
    <message>
        <source>%1 · %2 · discontinued</source>
        <translation>%1 · %2 · ausgelistet</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 in stock</source>
        <translation>%1 · %2 · %3 auf Lager</translation>
    </message>
    <message>
        <source>Quantity of %1</source>
        <translation>Menge von %1</translation>
    </message>
    <message>
        <source>The beer catalog is empty.</source>
        <translation>Der Bierkatalog ist leer.</translation>
    </message>
    <message>
        <source>Place order</source>
        <translation>Bestellung aufgeben</translation>
    </message>
    <message>
        <source>Place the test order</source>
        <translation>Die Testbestellung aufgeben</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
</context>
</TS>
