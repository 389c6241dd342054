<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="de_DE">
<context>
    <name>AccessDialog</name>
    <message>
        <source>Effective cluster access</source>
        <translation>Effektiver Zugriff im Cluster</translation>
    </message>
    <message>
        <source>Effective access of a user</source>
        <translation>Effektiver Zugriff eines Benutzers</translation>
    </message>
    <message>
        <source>Effective access of a client</source>
        <translation>Effektiver Zugriff eines Clients</translation>
    </message>
    <message>
        <source>username</source>
        <translation>Benutzername</translation>
    </message>
    <message>
        <source>user, e.g. bob</source>
        <translation>Benutzer, z. B. bob</translation>
    </message>
    <message>
        <source>Identity</source>
        <translation>Identität</translation>
    </message>
    <message>
        <source>groups, comma separated</source>
        <translation>Gruppen, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>Groups</source>
        <translation>Gruppen</translation>
    </message>
    <message>
        <source>anonymous</source>
        <translation>anonym</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Anzeigen</translation>
    </message>
    <message>
        <source>system:masters: allowed everything before any authorizer runs.</source>
        <translation>system:masters: alles erlaubt, bevor ein Autorisierer läuft.</translation>
    </message>
    <message>
        <source>Scopes</source>
        <translation>Scopes</translation>
    </message>
    <message>
        <source>No client may act for this user.</source>
        <translation>Kein Client darf für diesen Benutzer handeln.</translation>
    </message>
    <message>
        <source>No scopes.</source>
        <translation>Keine Scopes.</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Audiences</source>
        <translation>Audiences</translation>
    </message>
    <message>
        <source>Token claims</source>
        <translation>Token-Claims</translation>
    </message>
    <message>
        <source>Verbs and resources</source>
        <translation>Verben und Ressourcen</translation>
    </message>
    <message>
        <source>RBAC grants this identity nothing.</source>
        <translation>RBAC gewährt dieser Identität nichts.</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
</context>
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
    <name>AuditDetailPane</name>
    <message>
        <source>Select an entry to see what it changed and what it caused.</source>
        <translation>Einen Eintrag auswählen, um zu sehen, was er geändert und was er bewirkt hat.</translation>
    </message>
    <message>
        <source>%1 %2 %3</source>
        <translation>%1 %2 %3</translation>
    </message>
    <message>
        <source>Audit entry</source>
        <translation>Protokolleintrag</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Wann</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>Akteur</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>Anfrage</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>Änderungen</translation>
    </message>
    <message>
        <source>No field changed.</source>
        <translation>Kein Feld geändert.</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Feld</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Vorher</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Nachher</translation>
    </message>
    <message>
        <source>added</source>
        <translation>hinzugefügt</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>entfernt</translation>
    </message>
    <message>
        <source>What it caused</source>
        <translation>Was sie bewirkt hat</translation>
    </message>
    <message>
        <source>Nothing is traced for this kind of change.</source>
        <translation>Für diese Art von Änderung wird nichts nachverfolgt.</translation>
    </message>
    <message>
        <source>%1 (until %2)</source>
        <translation>%1 (bis %2)</translation>
    </message>
    <message>
        <source>Earlier requests decided otherwise after this change</source>
        <translation>Frühere Anfragen, die nach dieser Änderung anders entschieden werden</translation>
    </message>
    <message>
        <source>Authentication and authorization were run again; admission was not (request bodies are not kept).</source>
        <translation>Authentifizierung und Autorisierung wurden erneut ausgeführt, die Zulassungsprüfung nicht (Anfrageinhalte werden nicht aufbewahrt).</translation>
    </message>
</context>
<context>
    <name>AuditLogPane</name>
    <message>
        <source>Audit log</source>
        <translation>Audit-Log</translation>
    </message>
    <message>
        <source>%1 %2 %3 by %4</source>
        <translation>%1 %2 %3 durch %4</translation>
    </message>
    <message>
        <source>changed: %1</source>
        <translation>geändert: %1</translation>
    </message>
    <message>
        <source>no field changes</source>
        <translation>keine Feldänderungen</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Wird geladen …</translation>
    </message>
    <message>
        <source>Load older entries</source>
        <translation>Ältere Einträge laden</translation>
    </message>
    <message>
        <source>No older entries</source>
        <translation>Keine älteren Einträge</translation>
    </message>
    <message>
        <source>Load older audit entries</source>
        <translation>Ältere Protokolleinträge laden</translation>
    </message>
    <message>
        <source>No audit entries match these filters.</source>
        <translation>Keine Protokolleinträge passen zu diesen Filtern.</translation>
    </message>
    <message>
        <source>No administrative changes recorded yet.</source>
        <translation>Noch keine administrativen Änderungen protokolliert.</translation>
    </message>
</context>
<context>
    <name>AuditPage</name>
    <message>
        <source>Kind</source>
        <translation>Art</translation>
    </message>
    <message>
        <source>Filter by kind</source>
        <translation>Nach Art filtern</translation>
    </message>
    <message>
        <source>Target contains…</source>
        <translation>Ziel enthält …</translation>
    </message>
    <message>
        <source>Filter by target</source>
        <translation>Nach Ziel filtern</translation>
    </message>
    <message>
        <source>Actor contains…</source>
        <translation>Akteur enthält …</translation>
    </message>
    <message>
        <source>Filter by actor</source>
        <translation>Nach Akteur filtern</translation>
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
        <source>Reload the audit log</source>
        <translation>Das Audit-Log neu laden</translation>
    </message>
</context>
<context>
    <name>BindingsTab</name>
    <message>
        <source>Who gets which role: cluster role bindings, then role bindings by namespace.</source>
        <translation>Wer welche Rolle bekommt: Clusterrollen-Bindungen, dann Rollen-Bindungen nach Namespace.</translation>
    </message>
    <message>
        <source>Bindings</source>
        <translation>Bindungen</translation>
    </message>
    <message>
        <source>%1 %2 grants %3 to %4</source>
        <translation>%1 %2 gewährt %3 an %4</translation>
    </message>
    <message>
        <source>nobody</source>
        <translation>niemanden</translation>
    </message>
    <message>
        <source>grants %1 to</source>
        <translation>gewährt %1 an</translation>
    </message>
    <message>
        <source>no subjects (grants nothing)</source>
        <translation>keine Subjekte (gewährt nichts)</translation>
    </message>
    <message>
        <source>No bindings.</source>
        <translation>Keine Bindungen.</translation>
    </message>
</context>
<context>
    <name>ChartTile</name>
    <message>
        <source>%1: %2, %3</source>
        <translation>%1: %2, %3</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>%1: not permitted</source>
        <translation>%1: nicht erlaubt</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1. Opens %2.</source>
        <translation>%1. Öffnet %2.</translation>
    </message>
    <message>
        <source>Not permitted</source>
        <translation>Nicht erlaubt</translation>
    </message>
    <message>
        <source>This admin token may not read the %1 area.</source>
        <translation>Dieses Admin-Token darf den Bereich %1 nicht lesen.</translation>
    </message>
    <message>
        <source>%1 %2</source>
        <translation>%1 %2</translation>
    </message>
</context>
<context>
    <name>ClientSecretDialog</name>
    <message>
        <source>New client secret for %1</source>
        <translation>Neues Client-Secret für %1</translation>
    </message>
    <message>
        <source>Client %1 registered</source>
        <translation>Client %1 registriert</translation>
    </message>
    <message>
        <source>The client authenticates at the token endpoint with its client_id and this secret.</source>
        <translation>Der Client meldet sich am Token-Endpunkt mit seiner client_id und diesem Secret an.</translation>
    </message>
    <message>
        <source>A public client has no secret: it proves itself with PKCE when it trades its authorization code.</source>
        <translation>Ein öffentlicher Client hat kein Secret: Er weist sich mit PKCE aus, wenn er seinen Autorisierungscode eintauscht.</translation>
    </message>
    <message>
        <source>Client id</source>
        <translation>Client-ID</translation>
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
        <source>Copy the client id to the clipboard</source>
        <translation>Die Client-ID in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <source>Client secret</source>
        <translation>Client-Secret</translation>
    </message>
    <message>
        <source>Copy the client secret to the clipboard</source>
        <translation>Das Client-Secret in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <source>You won&apos;t see this secret again. Gatehouse keeps only a hash of it; copy it now and hand it to the client&apos;s developers over a safe channel.</source>
        <translation>Dieses Secret wird nicht wieder angezeigt. Gatehouse speichert nur einen Hash davon; kopieren Sie es jetzt und geben Sie es den Entwicklern des Clients über einen sicheren Kanal.</translation>
    </message>
    <message>
        <source>The previous secret stopped working: the client needs the new one before its next token request.</source>
        <translation>Das bisherige Secret gilt nicht mehr: Der Client braucht das neue vor seiner nächsten Token-Anfrage.</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Fertig</translation>
    </message>
    <message>
        <source>Close; the secret is not shown again</source>
        <translation>Schließen; das Secret wird nicht wieder angezeigt</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
</context>
<context>
    <name>ClientsPage</name>
    <message>
        <source>%1 · obsolete</source>
        <translation>%1 · veraltet</translation>
    </message>
    <message>
        <source>%1 registered</source>
        <translation>%1 registriert</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Neu laden</translation>
    </message>
    <message>
        <source>Reload the clients</source>
        <translation>Die Clients neu laden</translation>
    </message>
    <message>
        <source>Register client…</source>
        <translation>Client registrieren…</translation>
    </message>
    <message>
        <source>Register a client</source>
        <translation>Einen Client registrieren</translation>
    </message>
    <message>
        <source>Clients</source>
        <translation>Clients</translation>
    </message>
    <message>
        <source>Confidential</source>
        <translation>Vertraulich</translation>
    </message>
    <message>
        <source>Public</source>
        <translation>Öffentlich</translation>
    </message>
    <message>
        <source>password grant: obsolete — OAuth 2.1 removes it</source>
        <translation>Password-Grant: veraltet — OAuth 2.1 streicht ihn</translation>
    </message>
    <message>
        <source>Scopes: %1</source>
        <translation>Scopes: %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <source>Redirect URIs: %1</source>
        <translation>Redirect-URIs: %1</translation>
    </message>
    <message>
        <source>Contacts: %1</source>
        <translation>Kontakte: %1</translation>
    </message>
    <message>
        <source>Rotate secret…</source>
        <translation>Secret rotieren…</translation>
    </message>
    <message>
        <source>Rotate the client secret of %1</source>
        <translation>Das Client-Secret von %1 rotieren</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Löschen…</translation>
    </message>
    <message>
        <source>Delete the client %1</source>
        <translation>Den Client %1 löschen</translation>
    </message>
    <message>
        <source>No clients yet. Register one to let an application ask for tokens.</source>
        <translation>Noch keine Clients. Registrieren Sie einen, damit eine Anwendung Tokens anfordern kann.</translation>
    </message>
    <message>
        <source>Rotate the secret of %1?</source>
        <translation>Das Secret von %1 rotieren?</translation>
    </message>
    <message>
        <source>A new secret is made and shown once. The current secret stops working at once: the client fails to get tokens until it uses the new one.</source>
        <translation>Ein neues Secret wird erzeugt und einmal angezeigt. Das bisherige gilt sofort nicht mehr: Der Client bekommt keine Tokens, bis er das neue verwendet.</translation>
    </message>
    <message>
        <source>Rotate</source>
        <translation>Rotieren</translation>
    </message>
    <message>
        <source>Delete %1?</source>
        <translation>%1 löschen?</translation>
    </message>
    <message>
        <source>The client is removed from the registry and every token it holds is revoked. This cannot be undone.</source>
        <translation>Der Client wird aus der Registry entfernt und jedes seiner Tokens widerrufen. Das lässt sich nicht rückgängig machen.</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Löschen</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 · registered %4</source>
        <translation>%1 · %2 · %3 · registriert %4</translation>
    </message>
    <message>
        <source>opaque tokens for %1</source>
        <translation>opake Tokens für %1</translation>
    </message>
    <message>
        <source>JWT tokens for %1</source>
        <translation>JWT-Tokens für %1</translation>
    </message>
    <message>
        <source>Applications that may ask this server for tokens; secrets are shown once.</source>
        <translation>Anwendungen, die bei diesem Server Tokens anfordern dürfen; Secrets werden einmal angezeigt.</translation>
    </message>
    <message>
        <source>Preview token…</source>
        <translation>Token-Vorschau …</translation>
    </message>
    <message>
        <source>Preview the token %1 would get</source>
        <translation>Vorschau des Tokens, das %1 bekäme</translation>
    </message>
    <message>
        <source>User access…</source>
        <translation>Benutzerzugriff …</translation>
    </message>
    <message>
        <source>Effective access of a user</source>
        <translation>Effektiver Zugriff eines Benutzers</translation>
    </message>
    <message>
        <source>Access…</source>
        <translation>Zugriff …</translation>
    </message>
    <message>
        <source>Effective access of %1</source>
        <translation>Effektiver Zugriff von %1</translation>
    </message>
    <message>
        <source>credentials ended %1: rotate the secret</source>
        <translation>Zugangsdaten abgelaufen %1: Secret erneuern</translation>
    </message>
    <message>
        <source>credentials end %1</source>
        <translation>Zugangsdaten enden %1</translation>
    </message>
    <message>
        <source>redirects not vetted</source>
        <translation>Weiterleitungen nicht geprüft</translation>
    </message>
    <message>
        <source>It registered itself and no administrator has checked these addresses: errors and sign-outs show the user a link instead of redirecting, until an administrator vouches for them.</source>
        <translation>Der Client hat sich selbst registriert, und kein Administrator hat diese Adressen geprüft: Fehler und Abmeldungen zeigen dem Benutzer einen Link, statt weiterzuleiten, bis ein Administrator für sie bürgt.</translation>
    </message>
    <message>
        <source>Vouch…</source>
        <translation>Bürgen…</translation>
    </message>
    <message>
        <source>Vouch for the redirect URIs of %1</source>
        <translation>Für die Weiterleitungs-URIs von %1 bürgen</translation>
    </message>
    <message>
        <source>Vouch for the redirect URIs of %1?</source>
        <translation>Für die Weiterleitungs-URIs von %1 bürgen?</translation>
    </message>
    <message>
        <source>Users are then sent to %1 without being asked, after an error, a refusal and a sign-out as after a sign-in. Vouch only if you know who runs these addresses. The client&apos;s registration access token can no longer widen what it has now.</source>
        <translation>Benutzer werden dann ohne Nachfrage zu %1 geschickt, nach einem Fehler, einer Ablehnung und einer Abmeldung wie nach einer Anmeldung. Bürgen Sie nur, wenn Sie wissen, wer diese Adressen betreibt. Das Registrierungs-Zugriffstoken des Clients kann danach nicht mehr erweitern, was er jetzt hat.</translation>
    </message>
    <message>
        <source>Vouch</source>
        <translation>Bürgen</translation>
    </message>
</context>
<context>
    <name>ClusterDenial</name>
    <message>
        <source>Authentication</source>
        <translation>Authentifizierung</translation>
    </message>
    <message>
        <source>Authorization</source>
        <translation>Autorisierung</translation>
    </message>
    <message>
        <source>Admission</source>
        <translation>Zulassung</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>Validierung</translation>
    </message>
    <message>
        <source>Handler</source>
        <translation>Handler</translation>
    </message>
    <message>
        <source>Refused at authentication</source>
        <translation>Bei der Authentifizierung abgelehnt</translation>
    </message>
    <message>
        <source>Refused at authorization</source>
        <translation>Bei der Autorisierung abgelehnt</translation>
    </message>
    <message>
        <source>Refused at authorization by %1</source>
        <translation>Bei der Autorisierung abgelehnt von %1</translation>
    </message>
    <message>
        <source>Refused at admission</source>
        <translation>Bei der Zulassung abgelehnt</translation>
    </message>
    <message>
        <source>Refused at admission by %1</source>
        <translation>Bei der Zulassung abgelehnt von %1</translation>
    </message>
    <message>
        <source>Refused at validation</source>
        <translation>Bei der Validierung abgelehnt</translation>
    </message>
    <message>
        <source>Refused by the request&apos;s handler</source>
        <translation>Vom Handler der Anfrage abgelehnt</translation>
    </message>
    <message>
        <source>Refused at %1</source>
        <translation>Abgelehnt bei %1</translation>
    </message>
    <message>
        <source>Refused at %1 by %2</source>
        <translation>Abgelehnt bei %1 von %2</translation>
    </message>
    <message>
        <source>other namespace</source>
        <translation>anderer Namespace</translation>
    </message>
    <message>
        <source>role missing</source>
        <translation>Rolle fehlt</translation>
    </message>
    <message>
        <source>no rule matches</source>
        <translation>keine Regel passt</translation>
    </message>
    <message>
        <source>verb</source>
        <translation>Verb</translation>
    </message>
    <message>
        <source>API group</source>
        <translation>API-Gruppe</translation>
    </message>
    <message>
        <source>resource</source>
        <translation>Ressource</translation>
    </message>
    <message>
        <source>resource name</source>
        <translation>Ressourcenname</translation>
    </message>
    <message>
        <source>URL path</source>
        <translation>URL-Pfad</translation>
    </message>
    <message>
        <source>rule kind (it covers resources)</source>
        <translation>Regelart (sie gilt für Ressourcen)</translation>
    </message>
    <message>
        <source>rule kind (it covers URL paths)</source>
        <translation>Regelart (sie gilt für URL-Pfade)</translation>
    </message>
    <message>
        <source>Groups of the token the cluster dropped: %1 (a system: group reaches the cluster only through an oidc-group-mappings entry)</source>
        <translation>Gruppen des Tokens, die der Cluster verworfen hat: %1 (eine system:-Gruppe erreicht den Cluster nur über einen Eintrag in oidc-group-mappings)</translation>
    </message>
</context>
<context>
    <name>ConfirmDialog</name>
    <message>
        <source>Confirm</source>
        <translation>Bestätigen</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
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
    <message>
        <source>%1 · %2 · token “%3”</source>
        <translation>%1 · %2 · Token „%3“</translation>
    </message>
    <message>
        <source>Untrusted certificate</source>
        <translation>Nicht vertrauenswürdiges Zertifikat</translation>
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
    <message>
        <source>Language</source>
        <translation>Sprache</translation>
    </message>
    <message>
        <source>Language of the console</source>
        <translation>Sprache der Konsole</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>Design</translation>
    </message>
    <message>
        <source>Light or dark colours (System: as the desktop)</source>
        <translation>Helle oder dunkle Farben (System: wie der Desktop)</translation>
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
    <message>
        <source>Last hour</source>
        <translation>Letzte Stunde</translation>
    </message>
    <message>
        <source>per minute</source>
        <translation>pro Minute</translation>
    </message>
    <message>
        <source>Orders</source>
        <translation>Bestellungen</translation>
    </message>
    <message numerus="yes">
        <source>%n this minute</source>
        <translation>
            <numerusform>%n in dieser Minute</numerusform>
            <numerusform>%n in dieser Minute</numerusform>
        </translation>
    </message>
    <message>
        <source>busiest minute</source>
        <translation>stärkste Minute</translation>
    </message>
    <message>
        <source>%1 · %2 orders</source>
        <translation>%1 · %2 Bestellungen</translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation>Zustellungen</translation>
    </message>
    <message>
        <source>%1 failed</source>
        <translation>%1 fehlgeschlagen</translation>
    </message>
    <message>
        <source>webhooks delivered</source>
        <translation>zugestellte Webhooks</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>erfolgreich</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>fehlgeschlagen</translation>
    </message>
    <message>
        <source>%1 · %2 succeeded, %3 failed</source>
        <translation>%1 · %2 erfolgreich, %3 fehlgeschlagen</translation>
    </message>
    <message>
        <source>Tokens issued</source>
        <translation>Ausgestellte Tokens</translation>
    </message>
    <message>
        <source>Tokens &amp; JWT</source>
        <translation>Tokens &amp; JWT</translation>
    </message>
    <message>
        <source>access tokens by grant type</source>
        <translation>Access-Tokens nach Grant-Typ</translation>
    </message>
    <message>
        <source>no tokens issued</source>
        <translation>keine Tokens ausgestellt</translation>
    </message>
    <message>
        <source>%1 · %2 tokens</source>
        <translation>%1 · %2 Tokens</translation>
    </message>
    <message>
        <source>Cluster requests</source>
        <translation>Cluster-Anfragen</translation>
    </message>
    <message>
        <source>RBAC requests</source>
        <translation>RBAC-Anfragen</translation>
    </message>
    <message>
        <source>%1 denied</source>
        <translation>%1 abgelehnt</translation>
    </message>
    <message>
        <source>allowed by the access layer</source>
        <translation>von der Zugriffsschicht erlaubt</translation>
    </message>
    <message>
        <source>allowed</source>
        <translation>erlaubt</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>abgelehnt</translation>
    </message>
    <message>
        <source>%1 · %2 allowed, %3 denied</source>
        <translation>%1 · %2 erlaubt, %3 abgelehnt</translation>
    </message>
    <message>
        <source>Instances</source>
        <translation>Instanzen</translation>
    </message>
    <message numerus="yes">
        <source>%n alive</source>
        <translation>
            <numerusform>%n aktiv</numerusform>
            <numerusform>%n aktiv</numerusform>
        </translation>
    </message>
    <message>
        <source>Instance %1</source>
        <translation>Instanz %1</translation>
    </message>
    <message>
        <source>This one</source>
        <translation>Diese</translation>
    </message>
    <message>
        <source>Leads</source>
        <translation>Führt</translation>
    </message>
    <message>
        <source>Gone</source>
        <translation>Weg</translation>
    </message>
    <message>
        <source>Version %1 · %2 · last heartbeat %3</source>
        <translation>Version %1 · %2 · letztes Lebenszeichen %3</translation>
    </message>
</context>
<context>
    <name>DecisionRow</name>
    <message>
        <source>%1: %2. %3</source>
        <translation>%1: %2. %3</translation>
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
    <message>
        <source>Redeliver…</source>
        <translation>Erneut zustellen …</translation>
    </message>
    <message>
        <source>Redeliver many deliveries at once</source>
        <translation>Viele Zustellungen auf einmal erneut senden</translation>
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
    <name>DenialCard</name>
    <message>
        <source>Why denied</source>
        <translation>Warum abgelehnt</translation>
    </message>
    <message>
        <source>the real answer, %1</source>
        <translation>die echte Antwort, %1</translation>
    </message>
    <message>
        <source>dry run, %1</source>
        <translation>Probelauf, %1</translation>
    </message>
</context>
<context>
    <name>DenialDetails</name>
    <message>
        <source>%1 said: %2</source>
        <translation>%1 sagt: %2</translation>
    </message>
    <message>
        <source>%1 said:</source>
        <translation>%1 sagt:</translation>
    </message>
    <message>
        <source>The server said:</source>
        <translation>Der Server sagt:</translation>
    </message>
    <message>
        <source>Bindings that name this identity but did not apply (%1):</source>
        <translation>Bindungen, die diese Identität nennen, aber nicht gegriffen haben (%1):</translation>
    </message>
    <message>
        <source>No RBAC binding names this identity, its groups or its service account.</source>
        <translation>Keine RBAC-Bindung nennt diese Identität, ihre Gruppen oder ihr Service-Account.</translation>
    </message>
    <message>
        <source>%1 grants %2 to %3, did not apply: %4. %5</source>
        <translation>%1 gewährt %2 an %3, hat nicht gegriffen: %4. %5</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>via %1</source>
        <translation>über %1</translation>
    </message>
    <message>
        <source>rule %1: %2</source>
        <translation>Regel %1: %2</translation>
    </message>
    <message>
        <source>no match on %1:</source>
        <translation>passt nicht bei %1:</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>„%1“</translation>
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
    <name>Gatehouse::Console::AccessView</name>
    <message>
        <source>Client %1 · grant types: %2</source>
        <translation>Client %1 · Grant-Typen: %2</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
    <message>
        <source>client_credentials access token</source>
        <translation>client_credentials-Access-Token</translation>
    </message>
    <message>
        <source>User %1 (%2)</source>
        <translation>Benutzer %1 (%2)</translation>
    </message>
    <message>
        <source>User %1 (%2) · groups: %3</source>
        <translation>Benutzer %1 (%2) · Gruppen: %3</translation>
    </message>
    <message>
        <source>%1 · access token</source>
        <translation>%1 · Access-Token</translation>
    </message>
    <message>
        <source>%1 · id_token</source>
        <translation>%1 · id_token</translation>
    </message>
    <message>
        <source>%1 %2 → %3 %4 rule %5 (%6 %7)</source>
        <translation>%1 %2 → %3 %4 Regel %5 (%6 %7)</translation>
    </message>
    <message>
        <source>%1 · groups: %2</source>
        <translation>%1 · Gruppen: %2</translation>
    </message>
    <message>
        <source>namespace %1</source>
        <translation>Namespace %1</translation>
    </message>
    <message>
        <source>cluster</source>
        <translation>Cluster</translation>
    </message>
    <message>
        <source>In the cluster: %1 · groups: %2 · through: %3</source>
        <translation>Im Cluster: %1 · Gruppen: %2 · über: %3</translation>
    </message>
    <message>
        <source>Not in the cluster: %1</source>
        <translation>Nicht im Cluster: %1</translation>
    </message>
    <message>
        <source>Dropped by the cluster: %1 (%2)</source>
        <translation>Vom Cluster verworfen: %1 (%2)</translation>
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
        <source>Refusing to send the admin token over plain http to %1: use https (the backend&apos;s --admin-tls), or reach its admin listener on loopback (an SSH tunnel)</source>
        <translation>Das Admin-Token wird nicht über unverschlüsseltes http an %1 gesendet: verwenden Sie https (--admin-tls des Backends) oder erreichen Sie dessen Admin-Listener über Loopback (einen SSH-Tunnel)</translation>
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
    <message>
        <source>The server&apos;s certificate changed since you trusted it</source>
        <translation>Das Zertifikat des Servers hat sich geändert, seit Sie ihm vertraut haben</translation>
    </message>
    <message>
        <source>The server&apos;s certificate is not trusted yet</source>
        <translation>Dem Zertifikat des Servers wird noch nicht vertraut</translation>
    </message>
    <message>
        <source>%1 has no address</source>
        <translation>%1 hat keine Adresse</translation>
    </message>
    <message>
        <source>The program listening at %1 did not prove that it is the Gatehouse holding this admin token, so the token was not sent (another program may hold the port of a Gatehouse that stopped; a Gatehouse older than this console cannot prove it)</source>
        <translation>Das Programm, das unter %1 lauscht, hat nicht nachgewiesen, dass es das Gatehouse mit diesem Admin-Token ist; der Token wurde daher nicht gesendet (ein anderes Programm kann den Port eines beendeten Gatehouse belegen; ein Gatehouse, das älter als diese Konsole ist, kann es nicht nachweisen)</translation>
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
    <name>Gatehouse::Console::AuditDetail</name>
    <message>
        <source>%1 to %2 (client %3)</source>
        <translation>%1 an %2 (Client %3)</translation>
    </message>
    <message>
        <source>Delivery %1: HTTP %2</source>
        <translation>Zustellung %1: HTTP %2</translation>
    </message>
    <message>
        <source>Delivery %1: no answer</source>
        <translation>Zustellung %1: keine Antwort</translation>
    </message>
    <message>
        <source>Denied (%1): %2 by %3</source>
        <translation>Abgelehnt (%1): %2 durch %3</translation>
    </message>
    <message>
        <source>Allowed (%1): %2 by %3</source>
        <translation>Erlaubt (%1): %2 durch %3</translation>
    </message>
    <message>
        <source>anonymous</source>
        <translation>anonym</translation>
    </message>
    <message numerus="yes">
        <source>%n token(s) issued to this user</source>
        <translation>
            <numerusform>%n Token an diesen Benutzer ausgegeben</numerusform>
            <numerusform>%n Token an diesen Benutzer ausgegeben</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n token(s) issued under this client record</source>
        <translation>
            <numerusform>%n Token unter diesem Client-Eintrag ausgegeben</numerusform>
            <numerusform>%n Token unter diesem Client-Eintrag ausgegeben</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 request(s) allowed and %2 denied since</source>
        <translation>seitdem %1 Anfrage(n) erlaubt und %2 abgelehnt</translation>
    </message>
    <message>
        <source>%1 delivery attempt(s) sent: %2 succeeded, %3 failed</source>
        <translation>%1 Zustellversuch(e) gesendet: %2 erfolgreich, %3 fehlgeschlagen</translation>
    </message>
    <message numerus="yes">
        <source>%n earlier request(s) decided otherwise after it; %1</source>
        <translation>
            <numerusform>%n frühere Anfrage danach anders entschieden; %1</numerusform>
            <numerusform>%n frühere Anfragen danach anders entschieden; %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Now allowed: %1 by %2</source>
        <translation>Jetzt erlaubt: %1 von %2</translation>
    </message>
    <message>
        <source>Now denied: %1 by %2</source>
        <translation>Jetzt verweigert: %1 von %2</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n request(s))</source>
        <translation>
            <numerusform>%1 (%n Anfrage)</numerusform>
            <numerusform>%1 (%n Anfragen)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::AuditLogModel</name>
    <message>
        <source>All kinds</source>
        <translation>Alle Arten</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::ClientForm</name>
    <message>
        <source>not an absolute URL</source>
        <translation>keine absolute URL</translation>
    </message>
    <message>
        <source>a redirect URI may not have a #fragment</source>
        <translation>eine Redirect-URI darf kein #Fragment haben</translation>
    </message>
    <message>
        <source>http only for loopback (127.0.0.1, localhost, [::1]); use https</source>
        <translation>http nur für Loopback (127.0.0.1, localhost, [::1]); verwenden Sie https</translation>
    </message>
    <message>
        <source>use https, or a reverse-domain scheme such as com.example.app:/callback</source>
        <translation>verwenden Sie https oder ein Reverse-Domain-Schema wie com.example.app:/callback</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 Min. %2 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 Min.</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 Std.</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 Std. %2 Min.</translation>
    </message>
    <message>
        <source>A name is required.</source>
        <translation>Ein Name ist erforderlich.</translation>
    </message>
    <message>
        <source>At most %1 characters (now %2).</source>
        <translation>Höchstens %1 Zeichen (jetzt %2).</translation>
    </message>
    <message>
        <source>Line %1: %2.</source>
        <translation>Zeile %1: %2.</translation>
    </message>
    <message>
        <source>authorization_code needs at least one redirect URI.</source>
        <translation>authorization_code braucht mindestens eine Redirect-URI.</translation>
    </message>
    <message>
        <source>Choose at least one grant type.</source>
        <translation>Wählen Sie mindestens einen Grant-Typ.</translation>
    </message>
    <message>
        <source>%1 is not a supported grant type.</source>
        <translation>%1 ist kein unterstützter Grant-Typ.</translation>
    </message>
    <message>
        <source>client_credentials needs a confidential client: choose client_secret_basic or client_secret_post.</source>
        <translation>client_credentials braucht einen vertraulichen Client: Wählen Sie client_secret_basic oder client_secret_post.</translation>
    </message>
    <message>
        <source>%1 is not a scope: scopes are separated by spaces and use printable ASCII without &quot; or \.</source>
        <translation>%1 ist kein Scope: Scopes werden durch Leerzeichen getrennt und bestehen aus druckbarem ASCII ohne &quot; und \.</translation>
    </message>
    <message>
        <source>An absolute https:// URL, or leave it empty.</source>
        <translation>Eine absolute https://-URL, oder leer lassen.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an e-mail address.</source>
        <translation>„%1“ ist keine E-Mail-Adresse.</translation>
    </message>
    <message>
        <source>A whole number of seconds.</source>
        <translation>Eine ganze Zahl von Sekunden.</translation>
    </message>
    <message>
        <source>%1 to %2 seconds (24 h).</source>
        <translation>%1 bis %2 Sekunden (24 Std.).</translation>
    </message>
    <message>
        <source>A user signs in and consents in the browser; the app trades the code for tokens (with PKCE).</source>
        <translation>Ein Benutzer meldet sich im Browser an und willigt ein; die App tauscht den Code gegen Tokens (mit PKCE).</translation>
    </message>
    <message>
        <source>A service acts on its own behalf with its client secret; no user involved.</source>
        <translation>Ein Dienst handelt im eigenen Namen mit seinem Client-Secret; kein Benutzer beteiligt.</translation>
    </message>
    <message>
        <source>Get new access tokens without asking the user again.</source>
        <translation>Neue Access-Tokens holen, ohne den Benutzer erneut zu fragen.</translation>
    </message>
    <message>
        <source>A device without a browser shows a code; the user approves on a phone or computer.</source>
        <translation>Ein Gerät ohne Browser zeigt einen Code; der Benutzer bestätigt auf Telefon oder Computer.</translation>
    </message>
    <message>
        <source>Trade a signed JWT assertion from a trusted issuer for an access token (RFC 7523).</source>
        <translation>Eine signierte JWT-Assertion eines vertrauenswürdigen Ausstellers gegen ein Access-Token tauschen (RFC 7523).</translation>
    </message>
    <message>
        <source>Swap one token for another, e.g. to call a downstream service (RFC 8693).</source>
        <translation>Ein Token gegen ein anderes tauschen, z. B. für einen nachgelagerten Dienst (RFC 8693).</translation>
    </message>
    <message>
        <source>The app collects the user&apos;s password itself and sends it to the token endpoint.</source>
        <translation>Die App nimmt das Passwort des Benutzers selbst entgegen und schickt es an den Token-Endpunkt.</translation>
    </message>
    <message>
        <source>obsolete — OAuth 2.1 removes it</source>
        <translation>veraltet — OAuth 2.1 streicht ihn</translation>
    </message>
    <message>
        <source>client_secret_basic (confidential)</source>
        <translation>client_secret_basic (vertraulich)</translation>
    </message>
    <message>
        <source>A server-side app; it sends its secret in the HTTP Basic header.</source>
        <translation>Eine serverseitige App; sie schickt ihr Secret im HTTP-Basic-Header.</translation>
    </message>
    <message>
        <source>client_secret_post (confidential)</source>
        <translation>client_secret_post (vertraulich)</translation>
    </message>
    <message>
        <source>A server-side app; it sends its secret in the form body.</source>
        <translation>Eine serverseitige App; sie schickt ihr Secret im Formular-Body.</translation>
    </message>
    <message>
        <source>none (public)</source>
        <translation>none (öffentlich)</translation>
    </message>
    <message>
        <source>A browser or mobile app that cannot keep a secret; no secret is issued and authorization_code requires PKCE.</source>
        <translation>Eine Browser- oder Mobil-App, die kein Secret geheim halten kann; es wird kein Secret ausgegeben und authorization_code verlangt PKCE.</translation>
    </message>
    <message>
        <source>JWT (self-contained, signed)</source>
        <translation>JWT (eigenständig, signiert)</translation>
    </message>
    <message>
        <source>Opaque (checked by introspection)</source>
        <translation>Opak (per Introspection geprüft)</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::ClusterSettingsState</name>
    <message>
        <source>Authorization: %1 · admission: %2</source>
        <translation>Autorisierung: %1 · Zulassung: %2</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keine</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::ConsoleAppearance</name>
    <message>
        <source>System (%1)</source>
        <translation>System (%1)</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Dunkel</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Hell</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::ConsoleLanguage</name>
    <message>
        <source>System (%1)</source>
        <translation>System (%1)</translation>
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
    <name>Gatehouse::Console::DashboardStats</name>
    <message>
        <source>other</source>
        <translation>andere</translation>
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
    <message>
        <source>This minute: %1</source>
        <translation>Diese Minute: %1</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::JwtInspector</name>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 Min.</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 Std.</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 Tage</translation>
    </message>
    <message>
        <source>expired %1 ago</source>
        <translation>abgelaufen vor %1</translation>
    </message>
    <message>
        <source>expires in %1:%2</source>
        <translation>läuft ab in %1:%2</translation>
    </message>
    <message>
        <source>expires in %1:%2:%3</source>
        <translation>läuft ab in %1:%2:%3</translation>
    </message>
    <message>
        <source>expires in %1 d %2 h</source>
        <translation>läuft ab in %1 T. %2 Std.</translation>
    </message>
    <message>
        <source>now</source>
        <translation>jetzt</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>in %1</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>vor %1</translation>
    </message>
    <message>
        <source>Not a JSON object: %1.</source>
        <translation>Kein JSON-Objekt: %1.</translation>
    </message>
    <message>
        <source>Paste a JWK Set or one JWK (JSON), or a PEM public key or certificate.</source>
        <translation>Fügen Sie ein JWK Set oder einen JWK (JSON) ein, oder einen öffentlichen PEM-Schlüssel oder ein Zertifikat.</translation>
    </message>
    <message>
        <source>this server&apos;s JWKS</source>
        <translation>das JWKS dieses Servers</translation>
    </message>
    <message>
        <source>the pasted JWKS</source>
        <translation>das eingefügte JWKS</translation>
    </message>
    <message>
        <source>the pasted PEM key</source>
        <translation>der eingefügte PEM-Schlüssel</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>bestanden</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>nicht bestanden</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>übersprungen</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Läuft ab</translation>
    </message>
    <message>
        <source>Not before</source>
        <translation>Nicht vor</translation>
    </message>
    <message>
        <source>Issued</source>
        <translation>Ausgestellt</translation>
    </message>
    <message>
        <source>Signed in</source>
        <translation>Angemeldet</translation>
    </message>
    <message>
        <source>%1: the active signing key</source>
        <translation>%1: der aktive Signaturschlüssel</translation>
    </message>
    <message>
        <source>%1: the next key (it signs nothing yet)</source>
        <translation>%1: der nächste Schlüssel (signiert noch nichts)</translation>
    </message>
    <message>
        <source>%1: a retired key, published until its tokens expire</source>
        <translation>%1: ein ausgemusterter Schlüssel, veröffentlicht, bis seine Tokens ablaufen</translation>
    </message>
    <message>
        <source>%1: not a key of this server</source>
        <translation>%1: kein Schlüssel dieses Servers</translation>
    </message>
    <message>
        <source>no kid</source>
        <translation>keine kid</translation>
    </message>
    <message>
        <source>Stored and active (expires %1)</source>
        <translation>Gespeichert, aktiv bis %1</translation>
    </message>
    <message>
        <source>Revoked %1</source>
        <translation>Widerrufen %1</translation>
    </message>
    <message>
        <source>Stored, expired</source>
        <translation>Gespeichert, abgelaufen</translation>
    </message>
    <message>
        <source>Not stored: %1</source>
        <translation>Nicht gespeichert: %1</translation>
    </message>
    <message>
        <source>Client %1 no longer exists</source>
        <translation>Client %1 existiert nicht mehr</translation>
    </message>
    <message>
        <source>Client %1 exists</source>
        <translation>Client %1 existiert</translation>
    </message>
    <message>
        <source>Client %1 (%2) exists</source>
        <translation>Client %1 (%2) existiert</translation>
    </message>
    <message>
        <source>User %1 no longer exists</source>
        <translation>Benutzer %1 existiert nicht mehr</translation>
    </message>
    <message>
        <source>User %1 exists</source>
        <translation>Benutzer %1 existiert</translation>
    </message>
    <message>
        <source>User %1 (%2) exists</source>
        <translation>Benutzer %1 (%2) existiert</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::KubeconfigForm</name>
    <message>
        <source>Give a name.</source>
        <translation>Gib einen Namen an.</translation>
    </message>
    <message>
        <source>Give the node&apos;s name (node-1); the user becomes system:node:node-1.</source>
        <translation>Gib den Namen des Knotens an (node-1); der Benutzer wird system:node:node-1.</translation>
    </message>
    <message>
        <source>%1 · no groups · expires %2</source>
        <translation>%1 · keine Gruppen · läuft ab %2</translation>
    </message>
    <message>
        <source>%1 · groups %2 · expires %3</source>
        <translation>%1 · Gruppen %2 · läuft ab %3</translation>
    </message>
    <message>
        <source>Choose a file.</source>
        <translation>Wähle eine Datei.</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>Konnte %1 nicht schreiben: %2</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::LiveState</name>
    <message>
        <source>Not connected</source>
        <translation>Nicht verbunden</translation>
    </message>
    <message>
        <source>Syncing</source>
        <translation>Gleicht ab</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>Live</translation>
    </message>
    <message>
        <source>Stale</source>
        <translation>Veraltet</translation>
    </message>
    <message>
        <source>Not permitted</source>
        <translation>Nicht erlaubt</translation>
    </message>
    <message>
        <source>Not loaded</source>
        <translation>Nicht geladen</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min</source>
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>%1 d</source>
        <translation>%1 T</translation>
    </message>
    <message>
        <source>last change %1 ago</source>
        <translation>letzte Änderung vor %1</translation>
    </message>
    <message>
        <source>synced %1 ago</source>
        <translation>synchronisiert vor %1</translation>
    </message>
    <message>
        <source>the admin token was refused</source>
        <translation>das Admin-Token wurde abgelehnt</translation>
    </message>
    <message>
        <source>backend unreachable, showing data from %1 ago</source>
        <translation>Backend nicht erreichbar, Daten von vor %1</translation>
    </message>
    <message>
        <source>backend unreachable</source>
        <translation>Backend nicht erreichbar</translation>
    </message>
    <message>
        <source>reconnecting in %1</source>
        <translation>neuer Versuch in %1</translation>
    </message>
    <message>
        <source>reconnecting</source>
        <translation>verbindet neu</translation>
    </message>
    <message>
        <source>resyncing; showing data from %1 ago</source>
        <translation>synchronisiert neu; Daten von vor %1</translation>
    </message>
    <message>
        <source>reading the list</source>
        <translation>liest die Liste</translation>
    </message>
    <message>
        <source>no word from the backend for %1</source>
        <translation>seit %1 keine Nachricht vom Backend</translation>
    </message>
    <message>
        <source>the server&apos;s certificate is not trusted</source>
        <translation>dem Zertifikat des Servers wird nicht vertraut</translation>
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
        <translation>Knoten</translation>
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
        <source>Audit log</source>
        <translation>Audit-Log</translation>
    </message>
    <message>
        <source>Every administrative change: who, when, what it changed field by field, and what it caused.</source>
        <translation>Jede administrative Änderung: wer, wann, was sie Feld für Feld geändert und was sie bewirkt hat.</translation>
    </message>
    <message>
        <source>Every backend setting: its value, where it came from, and whether a change applies live or at the next start.</source>
        <translation>Jede Backend-Einstellung: ihr Wert, ihre Herkunft und ob eine Änderung sofort oder beim nächsten Start gilt.</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::NodeLabelEditor</name>
    <message>
        <source>Cluster admin</source>
        <translation>Cluster-Admin</translation>
    </message>
    <message>
        <source>Node agent</source>
        <translation>Knoten-Agent</translation>
    </message>
    <message>
        <source>Custom user</source>
        <translation>Eigener Benutzer</translation>
    </message>
    <message>
        <source>Anonymous</source>
        <translation>Anonym</translation>
    </message>
    <message>
        <source>%1 · no groups</source>
        <translation>%1 · keine Gruppen</translation>
    </message>
    <message>
        <source>%1 · groups %2</source>
        <translation>%1 · Gruppen %2</translation>
    </message>
    <message>
        <source>%1 · no credentials at all</source>
        <translation>%1 · ganz ohne Anmeldedaten</translation>
    </message>
    <message>
        <source>Give the name of the node the agent runs on.</source>
        <translation>Gib den Namen des Knotens an, auf dem der Agent läuft.</translation>
    </message>
    <message>
        <source>Give a user name.</source>
        <translation>Gib einen Benutzernamen an.</translation>
    </message>
    <message>
        <source>not reached</source>
        <translation>nicht erreicht</translation>
    </message>
    <message>
        <source>Authentication</source>
        <translation>Authentifizierung</translation>
    </message>
    <message>
        <source>Authorization</source>
        <translation>Autorisierung</translation>
    </message>
    <message>
        <source>Not reached: the request was refused before authorization.</source>
        <translation>Nicht erreicht: Die Anfrage wurde vor der Autorisierung abgelehnt.</translation>
    </message>
    <message>
        <source>%1 %2 grants %3 %4, rules[%5], to %6 %7</source>
        <translation>%1 %2 gewährt %3 %4, rules[%5], an %6 %7</translation>
    </message>
    <message>
        <source>Allowed by the %1 authorizer.</source>
        <translation>Erlaubt vom Autorisierer %1.</translation>
    </message>
    <message>
        <source>Allowed by %1: %2</source>
        <translation>Erlaubt von %1: %2</translation>
    </message>
    <message>
        <source>Denied by the %1 authorizer.</source>
        <translation>Abgelehnt vom Autorisierer %1.</translation>
    </message>
    <message>
        <source>Denied by %1: %2</source>
        <translation>Abgelehnt von %1: %2</translation>
    </message>
    <message>
        <source>No authorizer allowed it (%1). %2</source>
        <translation>Kein Autorisierer hat es erlaubt (%1). %2</translation>
    </message>
    <message>
        <source>Admission</source>
        <translation>Zulassung</translation>
    </message>
    <message>
        <source>Not reached: the request was refused before admission.</source>
        <translation>Nicht erreicht: Die Anfrage wurde vor der Zulassung abgelehnt.</translation>
    </message>
    <message>
        <source>No admission plugin is enabled.</source>
        <translation>Kein Zulassungs-Plugin ist aktiv.</translation>
    </message>
    <message>
        <source>Admitted by %1.</source>
        <translation>Zugelassen von %1.</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>Validierung</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>Labels saved: %1 is at resourceVersion %2.</source>
        <translation>Labels gespeichert: %1 ist bei resourceVersion %2.</translation>
    </message>
    <message>
        <source>Webhook %1: failed in %2 ms, ignored (failurePolicy Ignore): %3</source>
        <translation>Webhook %1: nach %2 ms fehlgeschlagen, ignoriert (failurePolicy Ignore): %3</translation>
    </message>
    <message>
        <source>Webhook %1: allowed and changed the object (%2 ms)</source>
        <translation>Webhook %1: zugelassen, Objekt geändert (%2 ms)</translation>
    </message>
    <message>
        <source>Webhook %1: allowed (%2 ms)</source>
        <translation>Webhook %1: zugelassen (%2 ms)</translation>
    </message>
    <message>
        <source>Webhook %1: refused (%2 ms)</source>
        <translation>Webhook %1: abgelehnt (%2 ms)</translation>
    </message>
    <message>
        <source>Admission webhooks were not asked: that needs an admin token with cluster:write, so the real answer may differ.</source>
        <translation>Admission-Webhooks wurden nicht gefragt: Dafür braucht es ein Admin-Token mit cluster:write, die echte Antwort kann also abweichen.</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::NodeLabelModel</name>
    <message>
        <source>added</source>
        <translation>neu</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>entfernt</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>geändert</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::NodeListModel</name>
    <message>
        <source>Ready</source>
        <translation>Bereit</translation>
    </message>
    <message>
        <source>Not ready</source>
        <translation>Nicht bereit</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Unbekannt</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::RbacListModel</name>
    <message>
        <source>cluster-wide</source>
        <translation>clusterweit</translation>
    </message>
    <message>
        <source>namespace %1</source>
        <translation>Namespace %1</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::RbacRoleModel</name>
    <message>
        <source>%1 on %2</source>
        <translation>%1 auf %2</translation>
    </message>
    <message>
        <source>core</source>
        <translation>core</translation>
    </message>
    <message>
        <source>%1 on %2 (%3)</source>
        <translation>%1 auf %2 (%3)</translation>
    </message>
    <message>
        <source>named %1</source>
        <translation>namens %1</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::RedeliveryForm</name>
    <message>
        <source>Failed</source>
        <translation>Fehlgeschlagen</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>Erfolgreich</translation>
    </message>
    <message>
        <source>Failed or succeeded</source>
        <translation>Fehlgeschlagen oder erfolgreich</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>Läuft</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>Abgeschlossen</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Abgebrochen</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::SettingsModel</name>
    <message>
        <source>Listeners</source>
        <translation>Listener</translation>
    </message>
    <message>
        <source>Connection limits</source>
        <translation>Verbindungsgrenzen</translation>
    </message>
    <message>
        <source>Authorization server</source>
        <translation>Autorisierungsserver</translation>
    </message>
    <message>
        <source>Orders and webhooks</source>
        <translation>Bestellungen und Webhooks</translation>
    </message>
    <message>
        <source>Cluster API</source>
        <translation>Cluster-API</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>Speicher</translation>
    </message>
    <message>
        <source>default</source>
        <translation>Standard</translation>
    </message>
    <message>
        <source>changed through the admin API</source>
        <translation>über die Admin-API geändert</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::TokenListModel</name>
    <message>
        <source>expires in %1</source>
        <translation>läuft ab in %1</translation>
    </message>
    <message>
        <source>scope %1</source>
        <translation>Scope %1</translation>
    </message>
    <message>
        <source>Access token</source>
        <translation>Access-Token</translation>
    </message>
    <message>
        <source>Refresh token</source>
        <translation>Refresh-Token</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::TokenPreview</name>
    <message>
        <source>this server</source>
        <translation>dieser Server</translation>
    </message>
    <message>
        <source>client record</source>
        <translation>Client-Eintrag</translation>
    </message>
    <message>
        <source>the request</source>
        <translation>die Anfrage</translation>
    </message>
    <message>
        <source>requested scope</source>
        <translation>angefragter Scope</translation>
    </message>
    <message>
        <source>user attribute</source>
        <translation>Benutzerattribut</translation>
    </message>
    <message>
        <source>group</source>
        <translation>Gruppe</translation>
    </message>
    <message>
        <source>subject token</source>
        <translation>Subject-Token</translation>
    </message>
    <message>
        <source>actor token</source>
        <translation>Actor-Token</translation>
    </message>
    <message>
        <source>exchange policy</source>
        <translation>Austauschregel</translation>
    </message>
    <message>
        <source>time</source>
        <translation>Zeit</translation>
    </message>
    <message>
        <source>random</source>
        <translation>Zufall</translation>
    </message>
    <message>
        <source>The token names no client (client_id or azp).</source>
        <translation>Das Token nennt keinen Client (client_id oder azp).</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::WhoCanModel</name>
    <message>
        <source>%1, cluster-wide</source>
        <translation>%1, clusterweit</translation>
    </message>
    <message>
        <source>%1 in namespace %2</source>
        <translation>%1 im Namespace %2</translation>
    </message>
</context>
<context>
    <name>GuidedTour</name>
    <message>
        <source>The backend at a glance</source>
        <translation>Das Backend auf einen Blick</translation>
    </message>
    <message>
        <source>Live counters: orders per minute, webhook deliveries, tokens by grant type and cluster verdicts. Each tile opens its page. The demo has placed three test orders; watch them arrive.</source>
        <translation>Live-Zähler: Bestellungen pro Minute, Webhook-Zustellungen, Tokens nach Grant-Typ und Cluster-Entscheidungen. Jede Kachel öffnet ihre Seite. Die Demo hat drei Testbestellungen aufgegeben; sehen Sie zu, wie sie ankommen.</translation>
    </message>
    <message>
        <source>Orders and their lifecycle</source>
        <translation>Bestellungen und ihr Lebenszyklus</translation>
    </message>
    <message>
        <source>Select an order to see its lines, status history and webhook deliveries. “Place test order…” starts a new one; it moves through validation and allocation on its own, and every status change is signed and delivered to the demo receiver.</source>
        <translation>Wählen Sie eine Bestellung, um Positionen, Statusverlauf und Webhook-Zustellungen zu sehen. „Testbestellung aufgeben…“ startet eine neue; sie durchläuft Prüfung und Zuteilung von selbst, und jede Statusänderung wird signiert an den Demo-Empfänger zugestellt.</translation>
    </message>
    <message>
        <source>Webhook deliveries</source>
        <translation>Webhook-Zustellungen</translation>
    </message>
    <message>
        <source>Every attempt with its signature headers, answer and retry schedule. Select a failed one and redeliver it, or redeliver many at a safe rate with “Redeliver…”.</source>
        <translation>Jeder Versuch mit Signatur-Headern, Antwort und Wiederholungsplan. Wählen Sie eine fehlgeschlagene Zustellung und stellen Sie sie erneut zu, oder viele auf einmal mit sicherer Rate über „Erneut zustellen…“.</translation>
    </message>
    <message>
        <source>OAuth clients</source>
        <translation>OAuth-Clients</translation>
    </message>
    <message>
        <source>Three demo clients: a public web app (authorization code with PKCE), a service (client credentials) and a legacy till (password grant, marked obsolete). “Preview token…” shows what a client would get and where each claim comes from.</source>
        <translation>Drei Demo-Clients: eine öffentliche Web-App (Authorization Code mit PKCE), ein Dienst (Client Credentials) und eine alte Kasse (Password-Grant, als veraltet markiert). „Token-Vorschau…“ zeigt, was ein Client bekäme und woher jeder Claim stammt.</translation>
    </message>
    <message>
        <source>Tokens and the JWT decoder</source>
        <translation>Tokens und der JWT-Decoder</translation>
    </message>
    <message>
        <source>Mint a token for the Inventory service, then decode it: every check (signature, expiry, audience) with a verdict, and whether this server still knows it. The demo users are alice and bob, password “gatehouse-demo”.</source>
        <translation>Stellen Sie ein Token für den Inventory service aus und dekodieren Sie es: jede Prüfung (Signatur, Ablauf, Audience) mit Ergebnis, und ob dieser Server es noch kennt. Die Demo-Benutzer sind alice und bob, Passwort „gatehouse-demo“.</translation>
    </message>
    <message>
        <source>Cluster nodes and live verdicts</source>
        <translation>Cluster-Knoten und Live-Entscheidungen</translation>
    </message>
    <message>
        <source>Act as the node agent of node-1 and change a label of node-2: NodeRestriction refuses, and “Why denied” says which rule and which binding. Act as alice (group devs) and the node-labeler binding allows it.</source>
        <translation>Handeln Sie als Knoten-Agent von node-1 und ändern Sie ein Label von node-2: NodeRestriction lehnt ab, und „Warum abgelehnt“ nennt Regel und Binding. Als alice (Gruppe devs) erlaubt es das Binding node-labeler.</translation>
    </message>
    <message>
        <source>RBAC</source>
        <translation>RBAC</translation>
    </message>
    <message>
        <source>Roles and bindings with the demo&apos;s node-labeler and pod-reader, who can do what, and every recent request with its verdict. “Effective access…” lists everything a subject holds, and why.</source>
        <translation>Rollen und Bindings mit node-labeler und pod-reader der Demo, wer was darf, und jede letzte Anfrage mit ihrer Entscheidung. „Effektiver Zugriff…“ listet alles, was ein Subjekt hat, und warum.</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>Turn anonymous access off: it applies at once, and the cluster answers 401 to anonymous requests. Other settings are kept for the next start.</source>
        <translation>Schalten Sie den anonymen Zugriff aus: Das gilt sofort, und der Cluster beantwortet anonyme Anfragen mit 401. Andere Einstellungen gelten ab dem nächsten Start.</translation>
    </message>
    <message>
        <source>The audit log</source>
        <translation>Das Audit-Protokoll</translation>
    </message>
    <message>
        <source>Every change above — by you or by the demo — with who made it, what changed field by field, and what it caused next. That is the end of the tour.</source>
        <translation>Jede Änderung von oben – von Ihnen oder der Demo – mit Urheber, Feld-für-Feld-Änderungen und ihren Folgen. Das ist das Ende der Tour.</translation>
    </message>
    <message>
        <source>Guided tour</source>
        <translation>Geführte Tour</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 von %2</translation>
    </message>
    <message>
        <source>End tour</source>
        <translation>Tour beenden</translation>
    </message>
    <message>
        <source>End the guided tour</source>
        <translation>Die geführte Tour beenden</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Zurück</translation>
    </message>
    <message>
        <source>Finish</source>
        <translation>Fertig</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Weiter</translation>
    </message>
    <message>
        <source>Finish the tour</source>
        <translation>Die Tour abschließen</translation>
    </message>
    <message>
        <source>Next page of the tour</source>
        <translation>Nächste Seite der Tour</translation>
    </message>
    <message>
        <source>Guided tour: %1</source>
        <translation>Geführte Tour: %1</translation>
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
    <name>IdentityCard</name>
    <message>
        <source>Act as</source>
        <translation>Handeln als</translation>
    </message>
    <message>
        <source>Identity to act as</source>
        <translation>Identität, als die gehandelt wird</translation>
    </message>
    <message>
        <source>Node the agent runs on</source>
        <translation>Knoten, auf dem der Agent läuft</translation>
    </message>
    <message>
        <source>Name of the node the agent runs on</source>
        <translation>Name des Knotens, auf dem der Agent läuft</translation>
    </message>
    <message>
        <source>User name</source>
        <translation>Benutzername</translation>
    </message>
    <message>
        <source>User name to act as</source>
        <translation>Benutzername, als der gehandelt wird</translation>
    </message>
    <message>
        <source>Groups, comma-separated</source>
        <translation>Gruppen, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>Groups of the user, comma-separated</source>
        <translation>Gruppen des Benutzers, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>Anonymous access is off: a request without credentials is refused as unauthorized.</source>
        <translation>Anonymer Zugriff ist aus: Eine Anfrage ohne Anmeldedaten wird als nicht authentifiziert abgelehnt.</translation>
    </message>
</context>
<context>
    <name>JwtCheckList</name>
    <message>
        <source>Checks</source>
        <translation>Prüfungen</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2: %3</translation>
    </message>
</context>
<context>
    <name>JwtInputCard</name>
    <message>
        <source>JWT</source>
        <translation>JWT</translation>
    </message>
    <message>
        <source>Paste a JWT (eyJ…); it is decoded as soon as you stop typing.</source>
        <translation>Fügen Sie ein JWT ein (eyJ…); es wird dekodiert, sobald Sie aufhören zu tippen.</translation>
    </message>
    <message>
        <source>JWT to decode</source>
        <translation>Zu dekodierendes JWT</translation>
    </message>
    <message>
        <source>Verification key (optional)</source>
        <translation>Prüfschlüssel (optional)</translation>
    </message>
    <message>
        <source>Empty: this server&apos;s JWKS. Or paste a JWK Set, one JWK, or a PEM public key or certificate.</source>
        <translation>Leer: das JWKS dieses Servers. Oder fügen Sie ein JWK Set, einen JWK oder einen öffentlichen PEM-Schlüssel bzw. ein Zertifikat ein.</translation>
    </message>
    <message>
        <source>Verification key: a JWKS, a JWK or a PEM key</source>
        <translation>Prüfschlüssel: ein JWKS, ein JWK oder ein PEM-Schlüssel</translation>
    </message>
    <message>
        <source>Expected audience</source>
        <translation>Erwartete Audience</translation>
    </message>
    <message>
        <source>Expected issuer</source>
        <translation>Erwarteter Issuer</translation>
    </message>
    <message>
        <source>not checked</source>
        <translation>nicht geprüft</translation>
    </message>
    <message>
        <source>this server</source>
        <translation>dieser Server</translation>
    </message>
    <message>
        <source>Decode and verify</source>
        <translation>Dekodieren und prüfen</translation>
    </message>
    <message>
        <source>Decode and verify the JWT</source>
        <translation>Das JWT dekodieren und prüfen</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Leeren</translation>
    </message>
    <message>
        <source>Clear the decoder</source>
        <translation>Den Decoder leeren</translation>
    </message>
</context>
<context>
    <name>JwtResultCard</name>
    <message>
        <source>Paste a token, or mint a demo token above, to see its header, payload, times and whether this server would accept it.</source>
        <translation>Fügen Sie ein Token ein oder erzeugen Sie oben ein Demo-Token, um Header, Payload, Zeiten und das Urteil dieses Servers zu sehen.</translation>
    </message>
    <message>
        <source>No exp claim: this token never expires.</source>
        <translation>Kein exp-Claim: Dieses Token läuft nie ab.</translation>
    </message>
    <message>
        <source>Key: %1</source>
        <translation>Schlüssel: %1</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>Warnung: %1</translation>
    </message>
    <message>
        <source>Compare with what this client would get now</source>
        <translation>Mit dem vergleichen, was dieser Client jetzt bekäme</translation>
    </message>
    <message>
        <source>The client would get the same claims now (apart from iat, exp and jti).</source>
        <translation>Der Client bekäme jetzt dieselben Claims (abgesehen von iat, exp und jti).</translation>
    </message>
    <message numerus="yes">
        <source>%n claim(s) would differ now:</source>
        <translation>
            <numerusform>%n Claim wäre jetzt anders:</numerusform>
            <numerusform>%n Claims wären jetzt anders:</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: this token %2, now %3</source>
        <translation>%1: dieses Token %2, jetzt %3</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(keiner)</translation>
    </message>
    <message>
        <source>Header</source>
        <translation>Header</translation>
    </message>
    <message>
        <source>JWT header</source>
        <translation>JWT-Header</translation>
    </message>
    <message>
        <source>Payload</source>
        <translation>Payload</translation>
    </message>
    <message>
        <source>JWT payload</source>
        <translation>JWT-Payload</translation>
    </message>
</context>
<context>
    <name>JwtServerFacts</name>
    <message>
        <source>On this server</source>
        <translation>Auf diesem Server</translation>
    </message>
    <message>
        <source>Issued here</source>
        <translation>Hier ausgestellt</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>ja</translation>
    </message>
    <message>
        <source>no: not signed with this server&apos;s keys</source>
        <translation>nein: nicht mit den Schlüsseln dieses Servers signiert</translation>
    </message>
    <message>
        <source>Signing key</source>
        <translation>Signaturschlüssel</translation>
    </message>
    <message>
        <source>Stored token</source>
        <translation>Gespeichertes Token</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>Widerrufen</translation>
    </message>
    <message>
        <source>Revoke this token</source>
        <translation>Dieses Token widerrufen</translation>
    </message>
    <message>
        <source>Client</source>
        <translation>Client</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
</context>
<context>
    <name>JwtTimeClaims</name>
    <message>
        <source>Times</source>
        <translation>Zeiten</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
</context>
<context>
    <name>KubeconfigDialog</name>
    <message>
        <source>Kubeconfig</source>
        <translation>Kubeconfig</translation>
    </message>
    <message>
        <source>Issues a client certificate signed by the cluster&apos;s CA and a kubeconfig that uses it. Only the redacted view is shown here; Save writes the real one, readable by you only.</source>
        <translation>Stellt ein von der CA des Clusters signiertes Client-Zertifikat und eine Kubeconfig dafür aus. Hier steht nur die geschwärzte Fassung; Speichern schreibt die echte, nur für dich lesbar.</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>A kubeconfig for a user</source>
        <translation>Eine Kubeconfig für einen Benutzer</translation>
    </message>
    <message>
        <source>Node agent</source>
        <translation>Knoten-Agent</translation>
    </message>
    <message>
        <source>A kubeconfig for a node agent (kubelet)</source>
        <translation>Eine Kubeconfig für einen Knoten-Agenten (Kubelet)</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>node-1 (the user becomes system:node:node-1)</source>
        <translation>node-1 (der Benutzer wird system:node:node-1)</translation>
    </message>
    <message>
        <source>alice</source>
        <translation>alice</translation>
    </message>
    <message>
        <source>Name of the node</source>
        <translation>Name des Knotens</translation>
    </message>
    <message>
        <source>User name</source>
        <translation>Benutzername</translation>
    </message>
    <message>
        <source>Groups</source>
        <translation>Gruppen</translation>
    </message>
    <message>
        <source>extra groups besides system:nodes (optional)</source>
        <translation>weitere Gruppen neben system:nodes (optional)</translation>
    </message>
    <message>
        <source>devs, ops (optional)</source>
        <translation>devs, ops (optional)</translation>
    </message>
    <message>
        <source>Groups, comma-separated</source>
        <translation>Gruppen, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>Issue another</source>
        <translation>Noch eine ausstellen</translation>
    </message>
    <message>
        <source>Issue</source>
        <translation>Ausstellen</translation>
    </message>
    <message>
        <source>Issue a certificate and kubeconfig</source>
        <translation>Ein Zertifikat und eine Kubeconfig ausstellen</translation>
    </message>
    <message>
        <source>The kubeconfig, with its keys and certificates omitted</source>
        <translation>Die Kubeconfig, ohne ihre Schlüssel und Zertifikate</translation>
    </message>
    <message>
        <source>Saved to %1 (mode 0600: readable by you only).</source>
        <translation>Gespeichert in %1 (Modus 0600: nur für dich lesbar).</translation>
    </message>
    <message>
        <source>Save kubeconfig…</source>
        <translation>Kubeconfig speichern…</translation>
    </message>
    <message>
        <source>Save the kubeconfig with its private key to a file</source>
        <translation>Die Kubeconfig mit ihrem privaten Schlüssel in eine Datei speichern</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
    <message>
        <source>Close; an unsaved kubeconfig is forgotten</source>
        <translation>Schließen; eine nicht gespeicherte Kubeconfig wird verworfen</translation>
    </message>
</context>
<context>
    <name>LabelsCard</name>
    <message>
        <source>Labels of %1</source>
        <translation>Labels von %1</translation>
    </message>
    <message>
        <source>Labels</source>
        <translation>Labels</translation>
    </message>
    <message>
        <source>resourceVersion %1</source>
        <translation>resourceVersion %1</translation>
    </message>
    <message>
        <source>Pick a node on the left.</source>
        <translation>Wähle links einen Knoten.</translation>
    </message>
    <message>
        <source>Value of label %1</source>
        <translation>Wert des Labels %1</translation>
    </message>
    <message>
        <source>Restore label %1</source>
        <translation>Label %1 wiederherstellen</translation>
    </message>
    <message>
        <source>Remove label %1</source>
        <translation>Label %1 entfernen</translation>
    </message>
    <message>
        <source>New key, e.g. example.com/rack</source>
        <translation>Neuer Schlüssel, z. B. example.com/rack</translation>
    </message>
    <message>
        <source>Key of a new label</source>
        <translation>Schlüssel eines neuen Labels</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Wert</translation>
    </message>
    <message>
        <source>Value of the new label</source>
        <translation>Wert des neuen Labels</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Hinzufügen</translation>
    </message>
    <message>
        <source>Add the new label to the table</source>
        <translation>Das neue Label in die Tabelle übernehmen</translation>
    </message>
    <message>
        <source>Pending change: %1</source>
        <translation>Ausstehende Änderung: %1</translation>
    </message>
    <message>
        <source>No pending change: the verdict is for an empty label patch.</source>
        <translation>Keine ausstehende Änderung: Das Urteil gilt für einen leeren Label-Patch.</translation>
    </message>
</context>
<context>
    <name>ListHeader</name>
    <message>
        <source>Reload</source>
        <translation>Neu laden</translation>
    </message>
    <message>
        <source>Reload this list</source>
        <translation>Diese Liste neu laden</translation>
    </message>
</context>
<context>
    <name>LiveBadge</name>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
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
    <message>
        <source>Guided tour</source>
        <translation>Geführte Tour</translation>
    </message>
    <message>
        <source>Start the guided tour</source>
        <translation>Die geführte Tour starten</translation>
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
    <name>NodeListCard</name>
    <message>
        <source>Nodes (%1)</source>
        <translation>Knoten (%1)</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Knoten</translation>
    </message>
    <message>
        <source>1 label</source>
        <translation>1 Label</translation>
    </message>
    <message>
        <source>%1 labels</source>
        <translation>%1 Labels</translation>
    </message>
    <message>
        <source>%1, %2, %3</source>
        <translation>%1, %2, %3</translation>
    </message>
    <message>
        <source>No nodes. A kubelet registers its node through the cluster API.</source>
        <translation>Keine Knoten. Ein Kubelet registriert seinen Knoten über die Cluster-API.</translation>
    </message>
</context>
<context>
    <name>NodesPage</name>
    <message>
        <source>Edit a node&apos;s labels as someone else: the server explains every change before you apply it.</source>
        <translation>Bearbeite die Labels eines Knotens als jemand anderes: Der Server erklärt jede Änderung, bevor du sie anwendest.</translation>
    </message>
    <message>
        <source>Anonymous access</source>
        <translation>Anonymer Zugriff</translation>
    </message>
    <message>
        <source>Anonymous access to the cluster API (applies at once)</source>
        <translation>Anonymer Zugriff auf die Cluster-API (gilt sofort)</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Neu laden</translation>
    </message>
    <message>
        <source>Reload the nodes</source>
        <translation>Die Knoten neu laden</translation>
    </message>
</context>
<context>
    <name>NotPermittedPane</name>
    <message>
        <source>Not permitted</source>
        <translation>Nicht erlaubt</translation>
    </message>
    <message>
        <source>This admin token may not read this view. Connect with a token that may, e.g. one from “gatehouse admin admin-tokens create NAME --allow AREA:read”.</source>
        <translation>Dieses Admin-Token darf diese Ansicht nicht lesen. Verbinden Sie sich mit einem Token, das es darf, z. B. aus „gatehouse admin admin-tokens create NAME --allow AREA:read“.</translation>
    </message>
    <message>
        <source>Not permitted: %1</source>
        <translation>Nicht erlaubt: %1</translation>
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
    <message>
        <source>Loading older orders…</source>
        <translation>Ältere Bestellungen werden geladen …</translation>
    </message>
    <message>
        <source>Older orders: scroll on to load them</source>
        <translation>Ältere Bestellungen: weiterscrollen, um sie zu laden</translation>
    </message>
    <message>
        <source>Release orders</source>
        <translation>Bestellungen freigeben</translation>
    </message>
    <message>
        <source>Hold orders</source>
        <translation>Bestellungen anhalten</translation>
    </message>
    <message>
        <source>Release the order lifecycle</source>
        <translation>Den Bestellablauf freigeben</translation>
    </message>
    <message>
        <source>Hold the order lifecycle</source>
        <translation>Den Bestellablauf anhalten</translation>
    </message>
    <message>
        <source>Validate and allocate the waiting orders, oldest first</source>
        <translation>Die wartenden Bestellungen prüfen und zuteilen, die älteste zuerst</translation>
    </message>
    <message>
        <source>Accept new orders but keep them in NEW until released</source>
        <translation>Neue Bestellungen annehmen, aber bis zur Freigabe in NEW halten</translation>
    </message>
    <message>
        <source>Lifecycle held</source>
        <translation>Bestellablauf angehalten</translation>
    </message>
    <message numerus="yes">
        <source>%n order(s) wait in NEW. New orders are accepted and announced; they are validated and allocated once released.</source>
        <translation>
            <numerusform>%n Bestellung wartet in NEW. Neue Bestellungen werden angenommen und gemeldet; nach der Freigabe werden sie geprüft und zugeteilt.</numerusform>
            <numerusform>%n Bestellungen warten in NEW. Neue Bestellungen werden angenommen und gemeldet; nach der Freigabe werden sie geprüft und zugeteilt.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RbacPage</name>
    <message>
        <source>Roles (%1)</source>
        <translation>Rollen (%1)</translation>
    </message>
    <message>
        <source>Bindings (%1)</source>
        <translation>Bindungen (%1)</translation>
    </message>
    <message>
        <source>Who can</source>
        <translation>Wer darf</translation>
    </message>
    <message>
        <source>Requests (%1, %2 denied)</source>
        <translation>Anfragen (%1, %2 abgelehnt)</translation>
    </message>
    <message>
        <source>Requests (%1)</source>
        <translation>Anfragen (%1)</translation>
    </message>
    <message>
        <source>Kubeconfig…</source>
        <translation>Kubeconfig…</translation>
    </message>
    <message>
        <source>Issue a kubeconfig for a user or a node agent</source>
        <translation>Eine Kubeconfig für einen Benutzer oder Knoten-Agenten ausstellen</translation>
    </message>
    <message>
        <source>Save kubeconfig</source>
        <translation>Kubeconfig speichern</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Speichern</translation>
    </message>
    <message>
        <source>Kubeconfig files (*.kubeconfig *.yaml)</source>
        <translation>Kubeconfig-Dateien (*.kubeconfig *.yaml)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Alle Dateien (*)</translation>
    </message>
    <message>
        <source>Effective access…</source>
        <translation>Effektiver Zugriff …</translation>
    </message>
    <message>
        <source>What an identity may do in the cluster</source>
        <translation>Was eine Identität im Cluster darf</translation>
    </message>
</context>
<context>
    <name>RedeliverDialog</name>
    <message>
        <source>Redeliver webhooks</source>
        <translation>Webhooks erneut zustellen</translation>
    </message>
    <message>
        <source>Sends finished deliveries again, each with a new manual attempt and the same webhook-id, at most the given number a second.</source>
        <translation>Sendet abgeschlossene Zustellungen erneut, jede mit einem neuen manuellen Versuch und derselben webhook-id, höchstens die angegebene Anzahl pro Sekunde.</translation>
    </message>
    <message>
        <source>State</source>
        <translation>Status</translation>
    </message>
    <message>
        <source>Deliveries in this state</source>
        <translation>Zustellungen in diesem Status</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Kunde</translation>
    </message>
    <message>
        <source>any customer (id)</source>
        <translation>jeder Kunde (ID)</translation>
    </message>
    <message>
        <source>Customer id</source>
        <translation>Kunden-ID</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>Bestellung</translation>
    </message>
    <message>
        <source>any order (id)</source>
        <translation>jede Bestellung (ID)</translation>
    </message>
    <message>
        <source>Order id</source>
        <translation>Bestell-ID</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>Endpunkt</translation>
    </message>
    <message>
        <source>any endpoint (id)</source>
        <translation>jeder Endpunkt (ID)</translation>
    </message>
    <message>
        <source>Endpoint id</source>
        <translation>Endpunkt-ID</translation>
    </message>
    <message>
        <source>Created from</source>
        <translation>Erstellt ab</translation>
    </message>
    <message>
        <source>Created from (ISO 8601)</source>
        <translation>Erstellt ab (ISO 8601)</translation>
    </message>
    <message>
        <source>to</source>
        <translation>bis</translation>
    </message>
    <message>
        <source>Created until (ISO 8601)</source>
        <translation>Erstellt bis (ISO 8601)</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>Vorschau</translation>
    </message>
    <message>
        <source>Count what this filter selects</source>
        <translation>Zählen, was dieser Filter auswählt</translation>
    </message>
    <message>
        <source>%1 of %2 matching deliveries (capped: a job takes at most 10,000)</source>
        <translation>%1 von %2 passenden Zustellungen (begrenzt: ein Auftrag umfasst höchstens 10.000)</translation>
    </message>
    <message numerus="yes">
        <source>%n delivery(s) would be sent again</source>
        <translation>
            <numerusform>%n Zustellung würde erneut gesendet</numerusform>
            <numerusform>%n Zustellungen würden erneut gesendet</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… und %n weitere</numerusform>
            <numerusform>… und %n weitere</numerusform>
        </translation>
    </message>
    <message>
        <source>Rate</source>
        <translation>Rate</translation>
    </message>
    <message>
        <source>Deliveries a second</source>
        <translation>Zustellungen pro Sekunde</translation>
    </message>
    <message>
        <source>deliveries a second</source>
        <translation>Zustellungen pro Sekunde</translation>
    </message>
    <message>
        <source>deliveries a second: 0.1 to 1000</source>
        <translation>Zustellungen pro Sekunde: 0,1 bis 1000</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Starten</translation>
    </message>
    <message>
        <source>Start redelivering</source>
        <translation>Erneute Zustellung starten</translation>
    </message>
    <message>
        <source>%1 of %2 sent · %3 queued again · %4 refused</source>
        <translation>%1 von %2 gesendet · %3 erneut eingereiht · %4 abgelehnt</translation>
    </message>
    <message>
        <source>Cancel job</source>
        <translation>Auftrag abbrechen</translation>
    </message>
    <message>
        <source>Cancel the redelivery job</source>
        <translation>Den Zustellauftrag abbrechen</translation>
    </message>
    <message>
        <source>Last refusal: %1</source>
        <translation>Letzte Ablehnung: %1</translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation>Aufträge</translation>
    </message>
    <message>
        <source>No redelivery jobs yet.</source>
        <translation>Noch keine Aufträge zur erneuten Zustellung.</translation>
    </message>
    <message>
        <source>%1 · %2 · %3/%4 sent · %5/s · %6</source>
        <translation>%1 · %2 · %3/%4 gesendet · %5/s · %6</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
</context>
<context>
    <name>RegisterClientDialog</name>
    <message>
        <source>Register a client</source>
        <translation>Einen Client registrieren</translation>
    </message>
    <message>
        <source>OAuth 2.0 dynamic client registration metadata (RFC 7591). A confidential client gets a secret, shown once.</source>
        <translation>Metadaten der dynamischen Client-Registrierung nach OAuth 2.0 (RFC 7591). Ein vertraulicher Client erhält ein Secret, das einmal angezeigt wird.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Name</translation>
    </message>
    <message>
        <source>e.g. Warehouse sync</source>
        <translation>z. B. Lager-Sync</translation>
    </message>
    <message>
        <source>Client name</source>
        <translation>Client-Name</translation>
    </message>
    <message>
        <source>Client type and authentication</source>
        <translation>Client-Typ und Authentifizierung</translation>
    </message>
    <message>
        <source>Token endpoint authentication method</source>
        <translation>Authentifizierungsmethode am Token-Endpunkt</translation>
    </message>
    <message>
        <source>Grant types</source>
        <translation>Grant-Typen</translation>
    </message>
    <message>
        <source>Grant type %1</source>
        <translation>Grant-Typ %1</translation>
    </message>
    <message>
        <source>Redirect URIs</source>
        <translation>Redirect-URIs</translation>
    </message>
    <message>
        <source>One per line. https; http only for 127.0.0.1, localhost or [::1]; or an app&apos;s own scheme such as com.example.app:/callback.</source>
        <translation>Eine pro Zeile. https; http nur für 127.0.0.1, localhost oder [::1]; oder ein eigenes Schema der App wie com.example.app:/callback.</translation>
    </message>
    <message>
        <source>Redirect URIs, one per line</source>
        <translation>Redirect-URIs, eine pro Zeile</translation>
    </message>
    <message>
        <source>Scopes</source>
        <translation>Scopes</translation>
    </message>
    <message>
        <source>Separated by spaces, e.g. openid profile orders:read</source>
        <translation>Durch Leerzeichen getrennt, z. B. openid profile orders:read</translation>
    </message>
    <message>
        <source>Allowed scopes, separated by spaces</source>
        <translation>Erlaubte Scopes, durch Leerzeichen getrennt</translation>
    </message>
    <message>
        <source>Access token format</source>
        <translation>Format des Access-Tokens</translation>
    </message>
    <message>
        <source>Access token lifetime</source>
        <translation>Lebensdauer des Access-Tokens</translation>
    </message>
    <message>
        <source>Access token lifetime in seconds</source>
        <translation>Lebensdauer des Access-Tokens in Sekunden</translation>
    </message>
    <message>
        <source>seconds (%1)</source>
        <translation>Sekunden (%1)</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>Sekunden</translation>
    </message>
    <message>
        <source>Logo URL (optional)</source>
        <translation>Logo-URL (optional)</translation>
    </message>
    <message>
        <source>Logo URL</source>
        <translation>Logo-URL</translation>
    </message>
    <message>
        <source>Contacts (optional)</source>
        <translation>Kontakte (optional)</translation>
    </message>
    <message>
        <source>E-mail addresses, separated by commas</source>
        <translation>E-Mail-Adressen, durch Kommas getrennt</translation>
    </message>
    <message>
        <source>Contact e-mail addresses</source>
        <translation>Kontakt-E-Mail-Adressen</translation>
    </message>
    <message>
        <source>The server refused: %1</source>
        <translation>Der Server lehnt ab: %1</translation>
    </message>
    <message>
        <source>Fix the fields marked in red.</source>
        <translation>Korrigieren Sie die rot markierten Felder.</translation>
    </message>
    <message>
        <source>Register</source>
        <translation>Registrieren</translation>
    </message>
    <message>
        <source>Register the client</source>
        <translation>Den Client registrieren</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
</context>
<context>
    <name>RequestsTab</name>
    <message>
        <source>The cluster API&apos;s decisions as they happen, newest first; denied requests in red.</source>
        <translation>Die Entscheidungen der Cluster-API, sobald sie fallen, neueste zuerst; abgelehnte Anfragen in Rot.</translation>
    </message>
    <message>
        <source>Denied only</source>
        <translation>Nur abgelehnte</translation>
    </message>
    <message>
        <source>Show denied requests only</source>
        <translation>Nur abgelehnte Anfragen zeigen</translation>
    </message>
    <message>
        <source>Hide admin API reads</source>
        <translation>Lesezugriffe der Admin-API ausblenden</translation>
    </message>
    <message>
        <source>Hide the reads the admin API makes as gatehouse-admin, such as this console&apos;s own lists</source>
        <translation>Die Lesezugriffe ausblenden, die die Admin-API als gatehouse-admin macht, etwa die Listen dieser Konsole</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Neu laden</translation>
    </message>
    <message>
        <source>Reload the recent requests</source>
        <translation>Die letzten Anfragen neu laden</translation>
    </message>
    <message>
        <source>Cluster API requests</source>
        <translation>Anfragen an die Cluster-API</translation>
    </message>
    <message>
        <source>Denied: %1 %2 by %3, %4 at %5: %6</source>
        <translation>Abgelehnt: %1 %2 von %3, %4 bei %5: %6</translation>
    </message>
    <message>
        <source>%1 %2 by %3, %4</source>
        <translation>%1 %2 von %3, %4</translation>
    </message>
    <message>
        <source>denied at %1</source>
        <translation>abgelehnt bei %1</translation>
    </message>
    <message>
        <source>Why denied</source>
        <translation>Warum abgelehnt</translation>
    </message>
    <message>
        <source>Why denied · 1 near miss</source>
        <translation>Warum abgelehnt · 1 Beinahe-Treffer</translation>
    </message>
    <message>
        <source>Why denied · %1 near misses</source>
        <translation>Warum abgelehnt · %1 Beinahe-Treffer</translation>
    </message>
    <message>
        <source>Hide why the request was denied</source>
        <translation>Ausblenden, warum die Anfrage abgelehnt wurde</translation>
    </message>
    <message>
        <source>Show why the request was denied</source>
        <translation>Zeigen, warum die Anfrage abgelehnt wurde</translation>
    </message>
    <message>
        <source>no user: not authenticated</source>
        <translation>kein Benutzer: nicht authentifiziert</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>No request matches the filters.</source>
        <translation>Keine Anfrage passt zu den Filtern.</translation>
    </message>
    <message>
        <source>No cluster API requests yet. Apply a label change on the Nodes page, or point kubectl at the cluster listener.</source>
        <translation>Noch keine Anfragen an die Cluster-API. Wende auf der Seite Knoten eine Label-Änderung an, oder richte kubectl auf den Cluster-Listener.</translation>
    </message>
</context>
<context>
    <name>RolesTab</name>
    <message>
        <source>Cluster roles, then roles by namespace; one line per rule.</source>
        <translation>Clusterrollen, dann Rollen nach Namespace; eine Zeile pro Regel.</translation>
    </message>
    <message>
        <source>Roles</source>
        <translation>Rollen</translation>
    </message>
    <message>
        <source>%1 %2, %3</source>
        <translation>%1 %2, %3</translation>
    </message>
    <message>
        <source>built-in</source>
        <translation>eingebaut</translation>
    </message>
    <message>
        <source>No rules: grants nothing.</source>
        <translation>Keine Regeln: gewährt nichts.</translation>
    </message>
    <message>
        <source>No roles.</source>
        <translation>Keine Rollen.</translation>
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
    <name>SettingsPage</name>
    <message>
        <source>Restart required: some changes are kept for the next start of the backend (marked “restart required”).</source>
        <translation>Neustart nötig: Einige Änderungen gelten erst beim nächsten Start des Backends (markiert mit „Neustart nötig“).</translation>
    </message>
    <message>
        <source>Filter settings (Ctrl+F)…</source>
        <translation>Einstellungen filtern (Strg+F)…</translation>
    </message>
    <message>
        <source>Filter settings</source>
        <translation>Einstellungen filtern</translation>
    </message>
    <message>
        <source>Live changes apply at once; the others at the next start.</source>
        <translation>Live-Änderungen gelten sofort, die anderen beim nächsten Start.</translation>
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
        <source>Reload the settings</source>
        <translation>Die Einstellungen neu laden</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Einstellungen</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1: %2</translation>
    </message>
    <message>
        <source>applies live</source>
        <translation>gilt sofort</translation>
    </message>
    <message>
        <source>restart required</source>
        <translation>Neustart nötig</translation>
    </message>
    <message>
        <source>from %1</source>
        <translation>aus %1</translation>
    </message>
    <message>
        <source>on</source>
        <translation>an</translation>
    </message>
    <message>
        <source>off</source>
        <translation>aus</translation>
    </message>
    <message>
        <source>%1 on or off</source>
        <translation>%1 an oder aus</translation>
    </message>
    <message>
        <source>default: %1</source>
        <translation>Standard: %1</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>leer</translation>
    </message>
    <message>
        <source>Value of %1</source>
        <translation>Wert von %1</translation>
    </message>
    <message>
        <source>Apply now</source>
        <translation>Jetzt anwenden</translation>
    </message>
    <message>
        <source>Keep for next start</source>
        <translation>Für den nächsten Start merken</translation>
    </message>
    <message>
        <source>Apply %1</source>
        <translation>%1 anwenden</translation>
    </message>
    <message>
        <source>Discard pending</source>
        <translation>Vorgemerktes verwerfen</translation>
    </message>
    <message>
        <source>Discard the value of %1 kept for the next start</source>
        <translation>Den für den nächsten Start vorgemerkten Wert von %1 verwerfen</translation>
    </message>
    <message>
        <source>running with %1</source>
        <translation>läuft mit %1</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>(leer)</translation>
    </message>
    <message>
        <source>The backend runs from this directory; start it with another --data-dir to change it.</source>
        <translation>Das Backend läuft aus diesem Verzeichnis; starten Sie es mit einem anderen --data-dir, um es zu ändern.</translation>
    </message>
    <message>
        <source>Given by %1, which wins at every start: change it there.</source>
        <translation>Gesetzt durch %1, das bei jedem Start Vorrang hat: dort ändern.</translation>
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
<context>
    <name>TokenPreviewDialog</name>
    <message>
        <source>Preview a token for %1</source>
        <translation>Token-Vorschau für %1</translation>
    </message>
    <message>
        <source>Grant type</source>
        <translation>Grant-Typ</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Scope</translation>
    </message>
    <message>
        <source>the client&apos;s scopes</source>
        <translation>die Scopes des Clients</translation>
    </message>
    <message>
        <source>Resource</source>
        <translation>Ressource</translation>
    </message>
    <message>
        <source>Audience</source>
        <translation>Audience</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Benutzer</translation>
    </message>
    <message>
        <source>username</source>
        <translation>Benutzername</translation>
    </message>
    <message>
        <source>Username</source>
        <translation>Benutzername</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>Vorschau</translation>
    </message>
    <message>
        <source>Preview the token</source>
        <translation>Vorschau des Tokens</translation>
    </message>
    <message>
        <source>%1 access token, also issued: %2</source>
        <translation>%1-Access-Token, zusätzlich ausgestellt: %2</translation>
    </message>
    <message>
        <source>%1 access token</source>
        <translation>%1-Access-Token</translation>
    </message>
    <message>
        <source>A dry run of the real issuing code: nothing is issued or stored, and iat, exp and jti differ in a real token.</source>
        <translation>Ein Probelauf des echten Ausstellungscodes: nichts wird ausgestellt oder gespeichert, und iat, exp und jti sind in einem echten Token anders.</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Schließen</translation>
    </message>
</context>
<context>
    <name>TokensPage</name>
    <message>
        <source>JWT decoder</source>
        <translation>JWT-Decoder</translation>
    </message>
    <message>
        <source>Active tokens (%1)</source>
        <translation>Aktive Tokens (%1)</translation>
    </message>
    <message>
        <source>Mint a demo token</source>
        <translation>Ein Demo-Token erzeugen</translation>
    </message>
    <message>
        <source>No client_credentials client</source>
        <translation>Kein client_credentials-Client</translation>
    </message>
    <message>
        <source>Client to mint a token for</source>
        <translation>Client, für den ein Token erzeugt wird</translation>
    </message>
    <message>
        <source>Scope (optional; default: all the client may have)</source>
        <translation>Scope (optional; Standard: alles, was der Client haben darf)</translation>
    </message>
    <message>
        <source>Scope of the demo token</source>
        <translation>Scope des Demo-Tokens</translation>
    </message>
    <message>
        <source>Mint</source>
        <translation>Erzeugen</translation>
    </message>
    <message>
        <source>Mint a client_credentials token and decode it</source>
        <translation>Ein client_credentials-Token erzeugen und dekodieren</translation>
    </message>
    <message>
        <source>A client_credentials token, issued as if the client had asked the token endpoint itself. Only confidential clients with that grant are listed.</source>
        <translation>Ein client_credentials-Token, ausgestellt, als hätte der Client selbst am Token-Endpunkt angefragt. Nur vertrauliche Clients mit diesem Grant stehen zur Wahl.</translation>
    </message>
    <message>
        <source>The minted access token</source>
        <translation>Das erzeugte Access-Token</translation>
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
        <source>Copy the minted token to the clipboard</source>
        <translation>Das erzeugte Token in die Zwischenablage kopieren</translation>
    </message>
    <message>
        <source>%1 — decoded below.</source>
        <translation>%1 — unten dekodiert.</translation>
    </message>
    <message>
        <source>Tokens that are neither expired nor revoked, newest first. Revoking a refresh token revokes its whole family.</source>
        <translation>Tokens, die weder abgelaufen noch widerrufen sind, neueste zuerst. Ein widerrufenes Refresh-Token widerruft seine ganze Familie.</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Neu laden</translation>
    </message>
    <message>
        <source>Reload the active tokens</source>
        <translation>Die aktiven Tokens neu laden</translation>
    </message>
    <message>
        <source>Active tokens</source>
        <translation>Aktive Tokens</translation>
    </message>
    <message>
        <source>%1 for %2</source>
        <translation>%1 für %2</translation>
    </message>
    <message>
        <source>%1 · subject %2</source>
        <translation>%1 · Subjekt %2</translation>
    </message>
    <message>
        <source>%1 · %2 · scope %3 · issued %4 · expires %5</source>
        <translation>%1 · %2 · Scope %3 · ausgestellt %4 · läuft ab %5</translation>
    </message>
    <message>
        <source>none</source>
        <translation>keiner</translation>
    </message>
    <message>
        <source>Revoke…</source>
        <translation>Widerrufen…</translation>
    </message>
    <message>
        <source>Revoke this %1</source>
        <translation>Dieses %1 widerrufen</translation>
    </message>
    <message>
        <source>No active tokens. Mint a demo token on the decoder tab to see one here.</source>
        <translation>Keine aktiven Tokens. Erzeugen Sie im Decoder-Tab ein Demo-Token, um hier eines zu sehen.</translation>
    </message>
    <message>
        <source>Revoke this token?</source>
        <translation>Dieses Token widerrufen?</translation>
    </message>
    <message>
        <source>The refresh token and every token of its family stop working at once.</source>
        <translation>Das Refresh-Token und jedes Token seiner Familie gelten sofort nicht mehr.</translation>
    </message>
    <message>
        <source>The token stops working at once: introspection answers inactive. A JWT stays verifiable offline until it expires.</source>
        <translation>Das Token gilt sofort nicht mehr: Die Introspection meldet es als inaktiv. Ein JWT bleibt offline prüfbar, bis es abläuft.</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>Widerrufen</translation>
    </message>
</context>
<context>
    <name>TrustCertificateDialog</name>
    <message>
        <source>The server&apos;s certificate changed</source>
        <translation>Das Zertifikat des Servers hat sich geändert</translation>
    </message>
    <message>
        <source>Trust this server&apos;s certificate?</source>
        <translation>Dem Zertifikat dieses Servers vertrauen?</translation>
    </message>
    <message>
        <source>%1 presents a certificate that no authority on this computer vouches for. Compare its fingerprint with the one the backend logged at start (“admin API over HTTPS; certificate SHA-256 fingerprint …”) or that its administrator gave you.</source>
        <translation>%1 legt ein Zertifikat vor, für das keine Stelle auf diesem Computer bürgt. Vergleichen Sie seinen Fingerabdruck mit dem, den das Backend beim Start protokolliert hat („admin API over HTTPS; certificate SHA-256 fingerprint …“) oder den Ihnen sein Administrator gegeben hat.</translation>
    </message>
    <message>
        <source>SHA-256 fingerprint</source>
        <translation>SHA-256-Fingerabdruck</translation>
    </message>
    <message>
        <source>SHA-256 fingerprint of the server&apos;s certificate</source>
        <translation>SHA-256-Fingerabdruck des Serverzertifikats</translation>
    </message>
    <message>
        <source>This is not the certificate you trusted for this server before. Someone may be intercepting the connection — or the server has a new certificate. Trust it only if its administrator confirms the new fingerprint.</source>
        <translation>Das ist nicht das Zertifikat, dem Sie für diesen Server vertraut haben. Jemand könnte die Verbindung abfangen – oder der Server hat ein neues Zertifikat. Vertrauen Sie ihm nur, wenn sein Administrator den neuen Fingerabdruck bestätigt.</translation>
    </message>
    <message>
        <source>Trust the new certificate</source>
        <translation>Dem neuen Zertifikat vertrauen</translation>
    </message>
    <message>
        <source>Trust and connect</source>
        <translation>Vertrauen und verbinden</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Abbrechen</translation>
    </message>
</context>
<context>
    <name>VerdictBar</name>
    <message>
        <source>Answered %1</source>
        <translation>Antwort %1</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <source>Send the label change for real (Ctrl+Return)</source>
        <translation>Die Label-Änderung wirklich senden (Strg+Eingabe)</translation>
    </message>
</context>
<context>
    <name>VerdictCard</name>
    <message>
        <source>Verdict (dry run)</source>
        <translation>Urteil (Probelauf)</translation>
    </message>
    <message>
        <source>The request would get %1</source>
        <translation>Die Anfrage bekäme %1</translation>
    </message>
    <message>
        <source>the change would be saved</source>
        <translation>die Änderung würde gespeichert</translation>
    </message>
    <message>
        <source>the change would be refused</source>
        <translation>die Änderung würde abgelehnt</translation>
    </message>
    <message>
        <source>The verdict shows here once a node is picked.</source>
        <translation>Das Urteil erscheint hier, sobald ein Knoten gewählt ist.</translation>
    </message>
    <message>
        <source>Applying…</source>
        <translation>Wird angewendet…</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Anwenden</translation>
    </message>
    <message>
        <source>Send the label change for real (Ctrl+Return)</source>
        <translation>Die Label-Änderung wirklich senden (Strg+Eingabe)</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Verwerfen</translation>
    </message>
    <message>
        <source>Drop every pending label change</source>
        <translation>Alle ausstehenden Label-Änderungen verwerfen</translation>
    </message>
    <message>
        <source>Answered %1</source>
        <translation>Antwort %1</translation>
    </message>
</context>
<context>
    <name>WhoCanTab</name>
    <message>
        <source>Resource</source>
        <translation>Ressource</translation>
    </message>
    <message>
        <source>Resource, e.g. nodes or pods</source>
        <translation>Ressource, z. B. nodes oder pods</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>Namespace</translation>
    </message>
    <message>
        <source>all (cluster-wide)</source>
        <translation>alle (clusterweit)</translation>
    </message>
    <message>
        <source>Namespace (optional)</source>
        <translation>Namespace (optional)</translation>
    </message>
    <message>
        <source>API group</source>
        <translation>API-Gruppe</translation>
    </message>
    <message>
        <source>core</source>
        <translation>core</translation>
    </message>
    <message>
        <source>API group (optional; empty for the core group)</source>
        <translation>API-Gruppe (optional; leer für die core-Gruppe)</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>Prüfen</translation>
    </message>
    <message>
        <source>Ask who can use this resource</source>
        <translation>Fragen, wer diese Ressource nutzen darf</translation>
    </message>
    <message>
        <source>Every subject named by a binding, and what it may do with %1.</source>
        <translation>Jedes Subjekt, das eine Bindung nennt, und was es mit %1 tun darf.</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>Subjekt</translation>
    </message>
    <message>
        <source>Who can: subjects by verbs</source>
        <translation>Wer darf: Subjekte nach Verben</translation>
    </message>
    <message>
        <source>%1 may: %2</source>
        <translation>%1 darf: %2</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>nichts</translation>
    </message>
    <message>
        <source>%1: allowed</source>
        <translation>%1: erlaubt</translation>
    </message>
    <message>
        <source>%1: not allowed</source>
        <translation>%1: nicht erlaubt</translation>
    </message>
    <message>
        <source>No binding names a subject.</source>
        <translation>Keine Bindung nennt ein Subjekt.</translation>
    </message>
</context>
</TS>
