<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="fr_FR">
<context>
    <name>AccessDialog</name>
    <message>
        <source>Effective cluster access</source>
        <translation>Accès effectif au cluster</translation>
    </message>
    <message>
        <source>Effective access of a user</source>
        <translation>Accès effectif d&apos;un utilisateur</translation>
    </message>
    <message>
        <source>Effective access of a client</source>
        <translation>Accès effectif d&apos;un client</translation>
    </message>
    <message>
        <source>username</source>
        <translation>nom d&apos;utilisateur</translation>
    </message>
    <message>
        <source>user, e.g. bob</source>
        <translation>utilisateur, p. ex. bob</translation>
    </message>
    <message>
        <source>Identity</source>
        <translation>Identité</translation>
    </message>
    <message>
        <source>groups, comma separated</source>
        <translation>groupes, séparés par des virgules</translation>
    </message>
    <message>
        <source>Groups</source>
        <translation>Groupes</translation>
    </message>
    <message>
        <source>anonymous</source>
        <translation>anonyme</translation>
    </message>
    <message>
        <source>Show</source>
        <translation>Afficher</translation>
    </message>
    <message>
        <source>system:masters: allowed everything before any authorizer runs.</source>
        <translation>system:masters&#xa0;: tout est autorisé avant même les modules d&apos;autorisation.</translation>
    </message>
    <message>
        <source>Scopes</source>
        <translation>Scopes</translation>
    </message>
    <message>
        <source>No client may act for this user.</source>
        <translation>Aucun client ne peut agir pour cet utilisateur.</translation>
    </message>
    <message>
        <source>No scopes.</source>
        <translation>Aucun scope.</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1&#xa0;: %2</translation>
    </message>
    <message>
        <source>Audiences</source>
        <translation>Audiences</translation>
    </message>
    <message>
        <source>Token claims</source>
        <translation>Claims du jeton</translation>
    </message>
    <message>
        <source>Verbs and resources</source>
        <translation>Verbes et ressources</translation>
    </message>
    <message>
        <source>RBAC grants this identity nothing.</source>
        <translation>RBAC n&apos;accorde rien à cette identité.</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
</context>
<context>
    <name>AttemptDelegate</name>
    <message>
        <source>Attempt %1 at %2: %3</source>
        <translation>Tentative %1 à %2&#xa0;: %3</translation>
    </message>
    <message>
        <source>#%1</source>
        <translation>n° %1</translation>
    </message>
</context>
<context>
    <name>AuditDetailPane</name>
    <message>
        <source>Select an entry to see what it changed and what it caused.</source>
        <translation>Sélectionnez une entrée pour voir ce qu&apos;elle a modifié et ce qu&apos;elle a entraîné.</translation>
    </message>
    <message>
        <source>%1 %2 %3</source>
        <translation>%1 %2 %3</translation>
    </message>
    <message>
        <source>Audit entry</source>
        <translation>Entrée d&apos;audit</translation>
    </message>
    <message>
        <source>When</source>
        <translation>Quand</translation>
    </message>
    <message>
        <source>Actor</source>
        <translation>Acteur</translation>
    </message>
    <message>
        <source>Request</source>
        <translation>Requête</translation>
    </message>
    <message>
        <source>Changes</source>
        <translation>Modifications</translation>
    </message>
    <message>
        <source>No field changed.</source>
        <translation>Aucun champ n&apos;a changé.</translation>
    </message>
    <message>
        <source>Field</source>
        <translation>Champ</translation>
    </message>
    <message>
        <source>Before</source>
        <translation>Avant</translation>
    </message>
    <message>
        <source>After</source>
        <translation>Après</translation>
    </message>
    <message>
        <source>added</source>
        <translation>ajouté</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>supprimé</translation>
    </message>
    <message>
        <source>What it caused</source>
        <translation>Ce qu&apos;elle a entraîné</translation>
    </message>
    <message>
        <source>Nothing is traced for this kind of change.</source>
        <translation>Rien n&apos;est suivi pour ce type de modification.</translation>
    </message>
    <message>
        <source>%1 (until %2)</source>
        <translation>%1 (jusqu&apos;à %2)</translation>
    </message>
    <message>
        <source>Earlier requests decided otherwise after this change</source>
        <translation>Requêtes antérieures décidées autrement après ce changement</translation>
    </message>
    <message>
        <source>Authentication and authorization were run again; admission was not (request bodies are not kept).</source>
        <translation>L’authentification et l’autorisation ont été réexécutées, l’admission non (le corps des requêtes n’est pas conservé).</translation>
    </message>
</context>
<context>
    <name>AuditLogPane</name>
    <message>
        <source>Audit log</source>
        <translation>Journal d&apos;audit</translation>
    </message>
    <message>
        <source>%1 %2 %3 by %4</source>
        <translation>%1 %2 %3 par %4</translation>
    </message>
    <message>
        <source>changed: %1</source>
        <translation>champs modifiés&#xa0;: %1</translation>
    </message>
    <message>
        <source>no field changes</source>
        <translation>aucun champ modifié</translation>
    </message>
    <message>
        <source>Loading…</source>
        <translation>Chargement…</translation>
    </message>
    <message>
        <source>Load older entries</source>
        <translation>Charger les entrées plus anciennes</translation>
    </message>
    <message>
        <source>No older entries</source>
        <translation>Pas d&apos;entrées plus anciennes</translation>
    </message>
    <message>
        <source>Load older audit entries</source>
        <translation>Charger les entrées d&apos;audit plus anciennes</translation>
    </message>
    <message>
        <source>No audit entries match these filters.</source>
        <translation>Aucune entrée d&apos;audit ne correspond à ces filtres.</translation>
    </message>
    <message>
        <source>No administrative changes recorded yet.</source>
        <translation>Aucune modification administrative enregistrée pour l&apos;instant.</translation>
    </message>
</context>
<context>
    <name>AuditPage</name>
    <message>
        <source>Kind</source>
        <translation>Type</translation>
    </message>
    <message>
        <source>Filter by kind</source>
        <translation>Filtrer par type</translation>
    </message>
    <message>
        <source>Target contains…</source>
        <translation>La cible contient…</translation>
    </message>
    <message>
        <source>Filter by target</source>
        <translation>Filtrer par cible</translation>
    </message>
    <message>
        <source>Actor contains…</source>
        <translation>L&apos;acteur contient…</translation>
    </message>
    <message>
        <source>Filter by actor</source>
        <translation>Filtrer par acteur</translation>
    </message>
    <message>
        <source>%1 shown</source>
        <translation>%1 dans la liste</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Recharger</translation>
    </message>
    <message>
        <source>Reload the audit log</source>
        <translation>Recharger le journal d&apos;audit</translation>
    </message>
</context>
<context>
    <name>BindingsTab</name>
    <message>
        <source>Who gets which role: cluster role bindings, then role bindings by namespace.</source>
        <translation>Qui reçoit quel rôle&#xa0;: liaisons de rôles de cluster, puis liaisons de rôles par namespace.</translation>
    </message>
    <message>
        <source>Bindings</source>
        <translation>Liaisons</translation>
    </message>
    <message>
        <source>%1 %2 grants %3 to %4</source>
        <translation>%1 %2 accorde %3 à %4</translation>
    </message>
    <message>
        <source>nobody</source>
        <translation>personne</translation>
    </message>
    <message>
        <source>grants %1 to</source>
        <translation>accorde %1 à</translation>
    </message>
    <message>
        <source>no subjects (grants nothing)</source>
        <translation>aucun sujet (n&apos;accorde rien)</translation>
    </message>
    <message>
        <source>No bindings.</source>
        <translation>Aucune liaison.</translation>
    </message>
</context>
<context>
    <name>ChartTile</name>
    <message>
        <source>%1: %2, %3</source>
        <translation>%1 : %2, %3</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1 : %2</translation>
    </message>
    <message>
        <source>%1: not permitted</source>
        <translation>%1 : non autorisé</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>%1. Opens %2.</source>
        <translation>%1. Ouvre %2.</translation>
    </message>
    <message>
        <source>Not permitted</source>
        <translation>Non autorisé</translation>
    </message>
    <message>
        <source>This admin token may not read the %1 area.</source>
        <translation>Ce jeton d’administration ne peut pas lire le domaine %1.</translation>
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
        <translation>Nouveau secret client pour %1</translation>
    </message>
    <message>
        <source>Client %1 registered</source>
        <translation>Client %1 enregistré</translation>
    </message>
    <message>
        <source>The client authenticates at the token endpoint with its client_id and this secret.</source>
        <translation>Le client s&apos;authentifie auprès du point de terminaison de jeton avec son client_id et ce secret.</translation>
    </message>
    <message>
        <source>A public client has no secret: it proves itself with PKCE when it trades its authorization code.</source>
        <translation>Un client public n&apos;a pas de secret&#xa0;: il prouve son identité avec PKCE en échangeant son code d&apos;autorisation.</translation>
    </message>
    <message>
        <source>Client id</source>
        <translation>ID client</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Copié</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Copy the client id to the clipboard</source>
        <translation>Copier l&apos;ID client dans le presse-papiers</translation>
    </message>
    <message>
        <source>Client secret</source>
        <translation>Secret client</translation>
    </message>
    <message>
        <source>Copy the client secret to the clipboard</source>
        <translation>Copier le secret client dans le presse-papiers</translation>
    </message>
    <message>
        <source>You won&apos;t see this secret again. Gatehouse keeps only a hash of it; copy it now and hand it to the client&apos;s developers over a safe channel.</source>
        <translation>Ce secret ne sera plus affiché. Gatehouse n&apos;en conserve qu&apos;une empreinte&#xa0;; copiez-le maintenant et transmettez-le aux développeurs du client par un canal sûr.</translation>
    </message>
    <message>
        <source>The previous secret stopped working: the client needs the new one before its next token request.</source>
        <translation>L&apos;ancien secret ne fonctionne plus&#xa0;: le client a besoin du nouveau avant sa prochaine demande de jeton.</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Terminé</translation>
    </message>
    <message>
        <source>Close; the secret is not shown again</source>
        <translation>Fermer&#xa0;; le secret ne sera plus affiché</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
</context>
<context>
    <name>ClientsPage</name>
    <message>
        <source>%1 · obsolete</source>
        <translation>%1 · obsolète</translation>
    </message>
    <message>
        <source>Applications that may ask this server for tokens; secrets are shown once.</source>
        <translation>Chaque secret client n&apos;est affiché qu&apos;une seule fois.</translation>
    </message>
    <message>
        <source>%1 registered</source>
        <translation>%1 dans le registre</translation>
    </message>
    <message>
        <source>User access…</source>
        <translation>Accès utilisateur…</translation>
    </message>
    <message>
        <source>Effective access of a user</source>
        <translation>Accès effectif d&apos;un utilisateur</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Recharger</translation>
    </message>
    <message>
        <source>Reload the clients</source>
        <translation>Recharger les clients</translation>
    </message>
    <message>
        <source>Register client…</source>
        <translation>Enregistrer un client…</translation>
    </message>
    <message>
        <source>Register a client</source>
        <translation>Enregistrer un client</translation>
    </message>
    <message>
        <source>Clients</source>
        <translation>Clients</translation>
    </message>
    <message>
        <source>Confidential</source>
        <translation>Confidentiel</translation>
    </message>
    <message>
        <source>Public</source>
        <translation>Public</translation>
    </message>
    <message>
        <source>password grant: obsolete — OAuth 2.1 removes it</source>
        <translation>password&#xa0;: obsolète — supprimé d&apos;OAuth 2.1</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 · registered %4</source>
        <translation>%1 · %2 · %3 · enregistrement&#xa0;: %4</translation>
    </message>
    <message>
        <source>opaque tokens for %1</source>
        <translation>jetons opaques pour %1</translation>
    </message>
    <message>
        <source>JWT tokens for %1</source>
        <translation>jetons JWT pour %1</translation>
    </message>
    <message>
        <source>Scopes: %1</source>
        <translation>Scopes&#xa0;: %1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>Redirect URIs: %1</source>
        <translation>URI de redirection&#xa0;: %1</translation>
    </message>
    <message>
        <source>Contacts: %1</source>
        <translation>Contacts&#xa0;: %1</translation>
    </message>
    <message>
        <source>Access…</source>
        <translation>Accès…</translation>
    </message>
    <message>
        <source>Effective access of %1</source>
        <translation>Accès effectif de %1</translation>
    </message>
    <message>
        <source>Preview token…</source>
        <translation>Aperçu du jeton…</translation>
    </message>
    <message>
        <source>Preview the token %1 would get</source>
        <translation>Aperçu du jeton que %1 obtiendrait</translation>
    </message>
    <message>
        <source>Rotate secret…</source>
        <translation>Nouveau secret…</translation>
    </message>
    <message>
        <source>Rotate the client secret of %1</source>
        <translation>Renouveler le secret client de %1</translation>
    </message>
    <message>
        <source>Delete…</source>
        <translation>Supprimer…</translation>
    </message>
    <message>
        <source>Delete the client %1</source>
        <translation>Supprimer le client %1</translation>
    </message>
    <message>
        <source>No clients yet. Register one to let an application ask for tokens.</source>
        <translation>Aucun client pour l&apos;instant. Enregistrez-en un pour qu&apos;une application puisse demander des jetons.</translation>
    </message>
    <message>
        <source>Rotate the secret of %1?</source>
        <translation>Renouveler le secret de %1&#xa0;?</translation>
    </message>
    <message>
        <source>A new secret is made and shown once. The current secret stops working at once: the client fails to get tokens until it uses the new one.</source>
        <translation>Un nouveau secret est créé et affiché une seule fois. Le secret actuel cesse aussitôt de fonctionner&#xa0;: le client n&apos;obtient plus de jetons tant qu&apos;il n&apos;utilise pas le nouveau.</translation>
    </message>
    <message>
        <source>Rotate</source>
        <translation>Renouveler</translation>
    </message>
    <message>
        <source>Delete %1?</source>
        <translation>Supprimer %1&#xa0;?</translation>
    </message>
    <message>
        <source>The client is removed from the registry and every token it holds is revoked. This cannot be undone.</source>
        <translation>Le client est retiré du registre et tous ses jetons sont révoqués. Cette action est irréversible.</translation>
    </message>
    <message>
        <source>Delete</source>
        <translation>Supprimer</translation>
    </message>
    <message>
        <source>credentials ended %1: rotate the secret</source>
        <translation>identifiants expirés %1 : renouvelez le secret</translation>
    </message>
    <message>
        <source>credentials end %1</source>
        <translation>identifiants valables jusqu’au %1</translation>
    </message>
    <message>
        <source>redirects not vetted</source>
        <translation>redirections non vérifiées</translation>
    </message>
    <message>
        <source>It registered itself and no administrator has checked these addresses: errors and sign-outs show the user a link instead of redirecting, until an administrator vouches for them.</source>
        <translation>Il s&apos;est enregistré lui-même et aucun administrateur n&apos;a vérifié ces adresses&#xa0;: les erreurs et les déconnexions montrent un lien à l&apos;utilisateur au lieu de le rediriger, jusqu&apos;à ce qu&apos;un administrateur s&apos;en porte garant.</translation>
    </message>
    <message>
        <source>Vouch…</source>
        <translation>Se porter garant…</translation>
    </message>
    <message>
        <source>Vouch for the redirect URIs of %1</source>
        <translation>Se porter garant des URI de redirection de %1</translation>
    </message>
    <message>
        <source>Vouch for the redirect URIs of %1?</source>
        <translation>Se porter garant des URI de redirection de %1&#xa0;?</translation>
    </message>
    <message>
        <source>Users are then sent to %1 without being asked, after an error, a refusal and a sign-out as after a sign-in. Vouch only if you know who runs these addresses. The client&apos;s registration access token can no longer widen what it has now.</source>
        <translation>Les utilisateurs sont alors envoyés vers %1 sans confirmation, après une erreur, un refus et une déconnexion comme après une connexion. Ne vous portez garant que si vous savez qui gère ces adresses. Le jeton d&apos;accès d&apos;enregistrement du client ne peut plus étendre ce qu&apos;il a maintenant.</translation>
    </message>
    <message>
        <source>Vouch</source>
        <translation>Se porter garant</translation>
    </message>
</context>
<context>
    <name>ClusterDenial</name>
    <message>
        <source>Authentication</source>
        <translation>Authentification</translation>
    </message>
    <message>
        <source>Authorization</source>
        <translation>Autorisation</translation>
    </message>
    <message>
        <source>Admission</source>
        <translation>Admission</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>Validation</translation>
    </message>
    <message>
        <source>Handler</source>
        <translation>Gestionnaire</translation>
    </message>
    <message>
        <source>Refused at authentication</source>
        <translation>Refusée à l&apos;authentification</translation>
    </message>
    <message>
        <source>Refused at authorization</source>
        <translation>Refusée à l&apos;autorisation</translation>
    </message>
    <message>
        <source>Refused at authorization by %1</source>
        <translation>Refusée à l&apos;autorisation par %1</translation>
    </message>
    <message>
        <source>Refused at admission</source>
        <translation>Refusée à l&apos;admission</translation>
    </message>
    <message>
        <source>Refused at admission by %1</source>
        <translation>Refusée à l&apos;admission par %1</translation>
    </message>
    <message>
        <source>Refused at validation</source>
        <translation>Refusée à la validation</translation>
    </message>
    <message>
        <source>Refused by the request&apos;s handler</source>
        <translation>Refusée par le gestionnaire de la requête</translation>
    </message>
    <message>
        <source>Refused at %1</source>
        <translation>Refusée à l&apos;étape %1</translation>
    </message>
    <message>
        <source>Refused at %1 by %2</source>
        <translation>Refusée à l&apos;étape %1 par %2</translation>
    </message>
    <message>
        <source>other namespace</source>
        <translation>autre namespace</translation>
    </message>
    <message>
        <source>role missing</source>
        <translation>rôle manquant</translation>
    </message>
    <message>
        <source>no rule matches</source>
        <translation>aucune règle ne correspond</translation>
    </message>
    <message>
        <source>verb</source>
        <translation>verbe</translation>
    </message>
    <message>
        <source>API group</source>
        <translation>groupe d&apos;API</translation>
    </message>
    <message>
        <source>resource</source>
        <translation>ressource</translation>
    </message>
    <message>
        <source>resource name</source>
        <translation>nom de ressource</translation>
    </message>
    <message>
        <source>URL path</source>
        <translation>chemin d&apos;URL</translation>
    </message>
    <message>
        <source>rule kind (it covers resources)</source>
        <translation>type de règle (elle porte sur des ressources)</translation>
    </message>
    <message>
        <source>rule kind (it covers URL paths)</source>
        <translation>type de règle (elle porte sur des chemins d&apos;URL)</translation>
    </message>
    <message>
        <source>Groups of the token the cluster dropped: %1 (a system: group reaches the cluster only through an oidc-group-mappings entry)</source>
        <translation>Groupes du jeton écartés par le cluster : %1 (un groupe system: n’atteint le cluster que par une entrée de oidc-group-mappings)</translation>
    </message>
</context>
<context>
    <name>ConfirmDialog</name>
    <message>
        <source>Confirm</source>
        <translation>Confirmer</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>ConnectDialog</name>
    <message>
        <source>Connect to a Gatehouse server</source>
        <translation>Se connecter à un serveur Gatehouse</translation>
    </message>
    <message>
        <source>Admin URL</source>
        <translation>URL d&apos;administration</translation>
    </message>
    <message>
        <source>Admin token</source>
        <translation>Jeton d&apos;administration</translation>
    </message>
    <message>
        <source>Contents of &lt;data-dir&gt;/admin-token</source>
        <translation>Contenu de &lt;data-dir&gt;/admin-token</translation>
    </message>
    <message>
        <source>The server refused the token: %1</source>
        <translation>Le serveur a refusé le jeton&#xa0;: %1</translation>
    </message>
    <message>
        <source>Connect</source>
        <translation>Se connecter</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>ConnectionIndicator</name>
    <message>
        <source>Online</source>
        <translation>En ligne</translation>
    </message>
    <message>
        <source>Connecting</source>
        <translation>Connexion</translation>
    </message>
    <message>
        <source>Offline</source>
        <translation>Hors ligne</translation>
    </message>
    <message>
        <source>Unauthorized</source>
        <translation>Non autorisé</translation>
    </message>
    <message>
        <source>Not connected</source>
        <translation>Non connecté</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Embedded</source>
        <translation>Intégré</translation>
    </message>
    <message>
        <source>Remote</source>
        <translation>Distant</translation>
    </message>
    <message>
        <source>Connection: %1</source>
        <translation>Connexion&#xa0;: %1</translation>
    </message>
    <message>
        <source>%1 · %2 · token “%3”</source>
        <translation>%1 · %2 · jeton « %3 »</translation>
    </message>
    <message>
        <source>Untrusted certificate</source>
        <translation>Certificat non approuvé</translation>
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
        <translation>URL du serveur %1</translation>
    </message>
    <message>
        <source>v%1</source>
        <translation>v%1</translation>
    </message>
    <message>
        <source>Server version %1</source>
        <translation>Version du serveur %1</translation>
    </message>
    <message>
        <source>Connect…</source>
        <translation>Connexion…</translation>
    </message>
    <message>
        <source>Connect to a server</source>
        <translation>Se connecter à un serveur</translation>
    </message>
    <message>
        <source>Choose the admin URL and token</source>
        <translation>Choisir l&apos;URL et le jeton d&apos;administration</translation>
    </message>
    <message>
        <source>Language</source>
        <translation>Langue</translation>
    </message>
    <message>
        <source>Language of the console</source>
        <translation>Langue de la console</translation>
    </message>
    <message>
        <source>Theme</source>
        <translation>Thème</translation>
    </message>
    <message>
        <source>Light or dark colours (System: as the desktop)</source>
        <translation>Couleurs claires ou sombres (Système : comme le bureau)</translation>
    </message>
</context>
<context>
    <name>CustomersPage</name>
    <message>
        <source>Each customer signs its webhooks with its own whsec_ secret.</source>
        <translation>Chaque client signe ses webhooks avec son propre secret whsec_.</translation>
    </message>
    <message>
        <source>%1 shown</source>
        <translation>%1 dans la liste</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Recharger</translation>
    </message>
    <message>
        <source>Reload the customers</source>
        <translation>Recharger les clients</translation>
    </message>
    <message>
        <source>New customer…</source>
        <translation>Nouveau client…</translation>
    </message>
    <message>
        <source>Create a customer</source>
        <translation>Créer un client</translation>
    </message>
    <message>
        <source>Customers</source>
        <translation>Clients</translation>
    </message>
    <message>
        <source>%1 · since %2 · orders %3</source>
        <translation>%1 · depuis %2 · commandes&#xa0;: %3</translation>
    </message>
    <message>
        <source>rotated %1 · old secret valid until %2</source>
        <translation>renouvellement&#xa0;: %1 · ancien secret valable jusqu&apos;à %2</translation>
    </message>
    <message>
        <source>secret rotated %1</source>
        <translation>secret renouvelé&#xa0;: %1</translation>
    </message>
    <message>
        <source>Rotate secret…</source>
        <translation>Nouveau secret…</translation>
    </message>
    <message>
        <source>Rotate the webhook secret of %1</source>
        <translation>Renouveler le secret de webhook de %1</translation>
    </message>
    <message>
        <source>Rotate the webhook secret of %1?</source>
        <translation>Renouveler le secret de webhook de %1&#xa0;?</translation>
    </message>
    <message>
        <source>A new secret is made and shown once. The current one keeps working for a grace period so the customer can switch.</source>
        <translation>Un nouveau secret est créé et affiché une seule fois. L&apos;actuel reste valable pendant une période de transition pour que le client puisse basculer.</translation>
    </message>
    <message>
        <source>Rotate</source>
        <translation>Renouveler</translation>
    </message>
    <message>
        <source>Rotate the secret</source>
        <translation>Renouveler le secret</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>DashboardPage</name>
    <message>
        <source>Connecting to %1…</source>
        <translation>Connexion à %1…</translation>
    </message>
    <message>
        <source>The backend is unreachable (%1). Reconnecting automatically…</source>
        <translation>Le backend est injoignable (%1). Reconnexion automatique…</translation>
    </message>
    <message>
        <source>The server refused the admin token: %1</source>
        <translation>Le serveur a refusé le jeton d&apos;administration&#xa0;: %1</translation>
    </message>
    <message>
        <source>Not connected to a Gatehouse server.</source>
        <translation>Non connecté à un serveur Gatehouse.</translation>
    </message>
    <message>
        <source>Retry now</source>
        <translation>Réessayer</translation>
    </message>
    <message>
        <source>Connect…</source>
        <translation>Connexion…</translation>
    </message>
    <message>
        <source>Connect to a server</source>
        <translation>Se connecter à un serveur</translation>
    </message>
    <message>
        <source>Uptime</source>
        <translation>En service depuis</translation>
    </message>
    <message>
        <source>Version %1</source>
        <translation>Version %1</translation>
    </message>
    <message>
        <source>Events received</source>
        <translation>Événements reçus</translation>
    </message>
    <message>
        <source>Last at %1</source>
        <translation>Dernier à %1</translation>
    </message>
    <message>
        <source>None yet</source>
        <translation>Aucun pour l&apos;instant</translation>
    </message>
    <message>
        <source>Database</source>
        <translation>Base de données</translation>
    </message>
    <message>
        <source>Schema %1 · %2</source>
        <translation>Schéma %1 · %2</translation>
    </message>
    <message>
        <source>TLS</source>
        <translation>TLS</translation>
    </message>
    <message>
        <source>requests · %1</source>
        <translation>requêtes · %1</translation>
    </message>
    <message>
        <source>Latest events</source>
        <translation>Derniers événements</translation>
    </message>
    <message numerus="yes">
        <source>%n shown</source>
        <translation>
            <numerusform>%n affiché</numerusform>
            <numerusform>%n affichés</numerusform>
        </translation>
    </message>
    <message>
        <source>Show stats events</source>
        <translation>Afficher les événements stats</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Vider</translation>
    </message>
    <message>
        <source>Clear the event list</source>
        <translation>Vider la liste des événements</translation>
    </message>
    <message>
        <source>No events yet. They appear here as the backend reports them.</source>
        <translation>Aucun événement pour l&apos;instant. Ils s&apos;affichent ici à mesure que le backend les signale.</translation>
    </message>
    <message>
        <source>Last hour</source>
        <translation>Dernière heure</translation>
    </message>
    <message>
        <source>per minute</source>
        <translation>par minute</translation>
    </message>
    <message>
        <source>Orders</source>
        <translation>Commandes</translation>
    </message>
    <message numerus="yes">
        <source>%n this minute</source>
        <translation>
            <numerusform>%n cette minute</numerusform>
            <numerusform>%n cette minute</numerusform>
        </translation>
    </message>
    <message>
        <source>busiest minute</source>
        <translation>minute la plus chargée</translation>
    </message>
    <message>
        <source>%1 · %2 orders</source>
        <translation>%1 · %2 commandes</translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation>Livraisons</translation>
    </message>
    <message>
        <source>%1 failed</source>
        <translation>échecs : %1</translation>
    </message>
    <message>
        <source>webhooks delivered</source>
        <translation>webhooks livrés</translation>
    </message>
    <message>
        <source>succeeded</source>
        <translation>réussies</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>échouées</translation>
    </message>
    <message>
        <source>%1 · %2 succeeded, %3 failed</source>
        <translation>%1 · réussies : %2, échouées : %3</translation>
    </message>
    <message>
        <source>Tokens issued</source>
        <translation>Jetons émis</translation>
    </message>
    <message>
        <source>Tokens &amp; JWT</source>
        <translation>Jetons et JWT</translation>
    </message>
    <message>
        <source>access tokens by grant type</source>
        <translation>jetons d’accès par type d’octroi</translation>
    </message>
    <message>
        <source>no tokens issued</source>
        <translation>aucun jeton émis</translation>
    </message>
    <message>
        <source>%1 · %2 tokens</source>
        <translation>%1 · %2 jetons</translation>
    </message>
    <message>
        <source>Cluster requests</source>
        <translation>Requêtes du cluster</translation>
    </message>
    <message>
        <source>RBAC requests</source>
        <translation>Requêtes RBAC</translation>
    </message>
    <message>
        <source>%1 denied</source>
        <translation>refusées : %1</translation>
    </message>
    <message>
        <source>allowed by the access layer</source>
        <translation>autorisées par la couche d’accès</translation>
    </message>
    <message>
        <source>allowed</source>
        <translation>autorisées</translation>
    </message>
    <message>
        <source>denied</source>
        <translation>refusées</translation>
    </message>
    <message>
        <source>%1 · %2 allowed, %3 denied</source>
        <translation>%1 · autorisées : %2, refusées : %3</translation>
    </message>
    <message>
        <source>Instances</source>
        <translation>Instances</translation>
    </message>
    <message numerus="yes">
        <source>%n alive</source>
        <translation>
            <numerusform>%n active</numerusform>
            <numerusform>%n actives</numerusform>
        </translation>
    </message>
    <message>
        <source>Instance %1</source>
        <translation>Instance %1</translation>
    </message>
    <message>
        <source>This one</source>
        <translation>Celle-ci</translation>
    </message>
    <message>
        <source>Leads</source>
        <translation>Dirige</translation>
    </message>
    <message>
        <source>Gone</source>
        <translation>Disparue</translation>
    </message>
    <message>
        <source>Version %1 · %2 · last heartbeat %3</source>
        <translation>Version %1 · %2 · dernier signe de vie %3</translation>
    </message>
</context>
<context>
    <name>DecisionRow</name>
    <message>
        <source>%1: %2. %3</source>
        <translation>%1&#xa0;: %2. %3</translation>
    </message>
</context>
<context>
    <name>DeliveriesPage</name>
    <message>
        <source>Disabled endpoints: their deliveries fail until they are enabled again</source>
        <translation>Points de terminaison désactivés&#xa0;: leurs livraisons échouent jusqu&apos;à leur réactivation</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>Disabled %1: %2</source>
        <translation>Désactivé (%1)&#xa0;: %2</translation>
    </message>
    <message>
        <source>Enable</source>
        <translation>Activer</translation>
    </message>
    <message>
        <source>Enable %1</source>
        <translation>Activer %1</translation>
    </message>
    <message>
        <source>State</source>
        <translation>État</translation>
    </message>
    <message>
        <source>Filter by state</source>
        <translation>Filtrer par état</translation>
    </message>
    <message numerus="yes">
        <source>%n failed</source>
        <translation>
            <numerusform>%n échouée</numerusform>
            <numerusform>%n échouées</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 shown</source>
        <translation>%1 dans la liste</translation>
    </message>
    <message>
        <source>Redeliver…</source>
        <translation>Renvoyer…</translation>
    </message>
    <message>
        <source>Redeliver many deliveries at once</source>
        <translation>Renvoyer plusieurs livraisons à la fois</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Recharger</translation>
    </message>
    <message>
        <source>Reload the deliveries</source>
        <translation>Recharger les livraisons</translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation>Livraisons</translation>
    </message>
    <message>
        <source>No deliveries in this state.</source>
        <translation>Aucune livraison dans cet état.</translation>
    </message>
    <message>
        <source>No webhook deliveries yet. Orders with a status callback URL get one per status change.</source>
        <translation>Aucune livraison de webhook pour l&apos;instant. Les commandes avec une URL de rappel de statut en reçoivent une à chaque changement de statut.</translation>
    </message>
    <message>
        <source>Select a delivery to see every attempt with its response.</source>
        <translation>Sélectionnez une livraison pour voir chaque tentative avec sa réponse.</translation>
    </message>
    <message>
        <source>Delivery</source>
        <translation>Livraison</translation>
    </message>
    <message>
        <source>Redeliver</source>
        <translation>Renvoyer</translation>
    </message>
    <message>
        <source>Send this delivery again</source>
        <translation>Envoyer de nouveau cette livraison</translation>
    </message>
    <message>
        <source>Queue it again with the same webhook-id</source>
        <translation>La remettre en file avec le même webhook-id</translation>
    </message>
    <message>
        <source>Failed (tries: %1): %2</source>
        <translation>Échouée (essais&#xa0;: %1)&#xa0;: %2</translation>
    </message>
    <message>
        <source>Webhook id</source>
        <translation>ID du webhook</translation>
    </message>
    <message>
        <source>Reports</source>
        <translation>Signale</translation>
    </message>
    <message>
        <source>%1 of order %2 (#%3)</source>
        <translation>%1 de la commande %2 (n° %3)</translation>
    </message>
    <message>
        <source>URL</source>
        <translation>URL</translation>
    </message>
    <message>
        <source>Last answer</source>
        <translation>Dernière réponse</translation>
    </message>
    <message>
        <source>not attempted yet</source>
        <translation>pas encore tentée</translation>
    </message>
    <message>
        <source>HTTP %1 in %2</source>
        <translation>HTTP %1 en %2</translation>
    </message>
    <message>
        <source>No answer</source>
        <translation>Pas de réponse</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Créée</translation>
    </message>
    <message>
        <source>Next attempt</source>
        <translation>Prochaine tentative</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>Terminée</translation>
    </message>
    <message>
        <source>Attempts</source>
        <translation>Tentatives</translation>
    </message>
    <message>
        <source>No attempts yet.</source>
        <translation>Aucune tentative pour l&apos;instant.</translation>
    </message>
</context>
<context>
    <name>DeliveryDelegate</name>
    <message>
        <source>Delivery of %1, failed: %2</source>
        <translation>Livraison de %1, échouée&#xa0;: %2</translation>
    </message>
    <message>
        <source>Delivery of %1, %2</source>
        <translation>Livraison de %1, %2</translation>
    </message>
    <message>
        <source>HTTP %1</source>
        <translation>HTTP %1</translation>
    </message>
    <message>
        <source>No answer</source>
        <translation>Pas de réponse</translation>
    </message>
    <message>
        <source>next try %1</source>
        <translation>prochain essai %1</translation>
    </message>
    <message>
        <source>tries %1</source>
        <translation>essais&#xa0;: %1</translation>
    </message>
</context>
<context>
    <name>DeliveryState</name>
    <message>
        <source>Pending</source>
        <translation>En attente</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>Réussie</translation>
    </message>
    <message>
        <source>Failed</source>
        <translation>Échouée</translation>
    </message>
    <message>
        <source>All states</source>
        <translation>Tous les états</translation>
    </message>
</context>
<context>
    <name>DenialCard</name>
    <message>
        <source>Why denied</source>
        <translation>Pourquoi refusé</translation>
    </message>
    <message>
        <source>the real answer, %1</source>
        <translation>la vraie réponse, %1</translation>
    </message>
    <message>
        <source>dry run, %1</source>
        <translation>simulation, %1</translation>
    </message>
</context>
<context>
    <name>DenialDetails</name>
    <message>
        <source>%1 said: %2</source>
        <translation>%1 a répondu&#xa0;: %2</translation>
    </message>
    <message>
        <source>%1 said:</source>
        <translation>%1 a répondu&#xa0;:</translation>
    </message>
    <message>
        <source>The server said:</source>
        <translation>Le serveur a répondu&#xa0;:</translation>
    </message>
    <message>
        <source>“%1”</source>
        <translation>«&#xa0;%1&#xa0;»</translation>
    </message>
    <message>
        <source>Bindings that name this identity but did not apply (%1):</source>
        <translation>Liaisons qui nomment cette identité mais ne se sont pas appliquées (%1)&#xa0;:</translation>
    </message>
    <message>
        <source>No RBAC binding names this identity, its groups or its service account.</source>
        <translation>Aucune liaison RBAC ne nomme cette identité, ses groupes ou son compte de service.</translation>
    </message>
    <message>
        <source>%1 grants %2 to %3, did not apply: %4. %5</source>
        <translation>%1 accorde %2 à %3, ne s&apos;est pas appliquée&#xa0;: %4. %5</translation>
    </message>
    <message>
        <source>%1 → %2</source>
        <translation>%1 → %2</translation>
    </message>
    <message>
        <source>via %1</source>
        <translation>via %1</translation>
    </message>
    <message>
        <source>rule %1: %2</source>
        <translation>règle %1&#xa0;: %2</translation>
    </message>
    <message>
        <source>no match on %1:</source>
        <translation>pas de correspondance sur %1&#xa0;:</translation>
    </message>
</context>
<context>
    <name>ErrorBanner</name>
    <message>
        <source>Error</source>
        <translation>Erreur</translation>
    </message>
    <message>
        <source>Dismiss</source>
        <translation>Masquer</translation>
    </message>
    <message>
        <source>Dismiss the error</source>
        <translation>Masquer l&apos;erreur</translation>
    </message>
</context>
<context>
    <name>EventDelegate</name>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2&#xa0;: %3</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::AccessView</name>
    <message>
        <source>Client %1 · grant types: %2</source>
        <translation>Client %1 · types d&apos;autorisation&#xa0;: %2</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>client_credentials access token</source>
        <translation>jeton d&apos;accès client_credentials</translation>
    </message>
    <message>
        <source>User %1 (%2)</source>
        <translation>Utilisateur %1 (%2)</translation>
    </message>
    <message>
        <source>User %1 (%2) · groups: %3</source>
        <translation>Utilisateur %1 (%2) · groupes&#xa0;: %3</translation>
    </message>
    <message>
        <source>%1 · access token</source>
        <translation>%1 · jeton d&apos;accès</translation>
    </message>
    <message>
        <source>%1 · id_token</source>
        <translation>%1 · id_token</translation>
    </message>
    <message>
        <source>%1 %2 → %3 %4 rule %5 (%6 %7)</source>
        <translation>%1 %2 → %3 %4 règle %5 (%6 %7)</translation>
    </message>
    <message>
        <source>%1 · groups: %2</source>
        <translation>%1 · groupes&#xa0;: %2</translation>
    </message>
    <message>
        <source>namespace %1</source>
        <translation>namespace %1</translation>
    </message>
    <message>
        <source>cluster</source>
        <translation>cluster</translation>
    </message>
    <message>
        <source>In the cluster: %1 · groups: %2 · through: %3</source>
        <translation>Dans le cluster : %1 · groupes : %2 · via : %3</translation>
    </message>
    <message>
        <source>Not in the cluster: %1</source>
        <translation>Absent du cluster : %1</translation>
    </message>
    <message>
        <source>Dropped by the cluster: %1 (%2)</source>
        <translation>Écartés par le cluster : %1 (%2)</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::AdminClient</name>
    <message>
        <source>The event stream stopped responding</source>
        <translation>Le flux d&apos;événements ne répond plus</translation>
    </message>
    <message>
        <source>Service API</source>
        <translation>API de service</translation>
    </message>
    <message>
        <source>Cluster API</source>
        <translation>API du cluster</translation>
    </message>
    <message>
        <source>Admin API</source>
        <translation>API d&apos;administration</translation>
    </message>
    <message>
        <source>%1 d %2 h</source>
        <translation>%1 j %2 h</translation>
    </message>
    <message>
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>Not a valid admin URL: %1</source>
        <translation>URL d&apos;administration non valide&#xa0;: %1</translation>
    </message>
    <message>
        <source>An admin token is required</source>
        <translation>Un jeton d&apos;administration est requis</translation>
    </message>
    <message>
        <source>Refusing to send the admin token over plain http to %1: use https (the backend&apos;s --admin-tls), or reach its admin listener on loopback (an SSH tunnel)</source>
        <translation>Le jeton d&apos;administration n&apos;est pas envoyé en http clair à %1&#xa0;: utilisez https (--admin-tls du backend), ou joignez son écouteur d&apos;administration en boucle locale (un tunnel SSH)</translation>
    </message>
    <message>
        <source>Not connected to a Gatehouse server</source>
        <translation>Non connecté à un serveur Gatehouse</translation>
    </message>
    <message>
        <source>The server sent an unreadable status: %1</source>
        <translation>Le serveur a envoyé un statut illisible&#xa0;: %1</translation>
    </message>
    <message>
        <source>The server closed the event stream</source>
        <translation>Le serveur a fermé le flux d&apos;événements</translation>
    </message>
    <message>
        <source>The server&apos;s certificate changed since you trusted it</source>
        <translation>Le certificat du serveur a changé depuis que vous l’avez approuvé</translation>
    </message>
    <message>
        <source>The server&apos;s certificate is not trusted yet</source>
        <translation>Le certificat du serveur n’est pas encore approuvé</translation>
    </message>
    <message>
        <source>%1 has no address</source>
        <translation>%1 n’a pas d’adresse</translation>
    </message>
    <message>
        <source>The program listening at %1 did not prove that it is the Gatehouse holding this admin token, so the token was not sent (another program may hold the port of a Gatehouse that stopped; a Gatehouse older than this console cannot prove it)</source>
        <translation>Le programme à l’écoute sur %1 n’a pas prouvé qu’il est le Gatehouse qui détient ce jeton d’administration ; le jeton n’a donc pas été envoyé (un autre programme peut occuper le port d’un Gatehouse arrêté ; un Gatehouse plus ancien que cette console ne peut pas le prouver)</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::AttemptListModel</name>
    <message>
        <source>Manual</source>
        <translation>Manuelle</translation>
    </message>
    <message>
        <source>Scheduled</source>
        <translation>Planifiée</translation>
    </message>
    <message>
        <source>No answer</source>
        <translation>Pas de réponse</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::AuditDetail</name>
    <message numerus="yes">
        <source>%n token(s) issued to this user</source>
        <translation>
            <numerusform>%n jeton émis pour cet utilisateur</numerusform>
            <numerusform>%n jetons émis pour cet utilisateur</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n token(s) issued under this client record</source>
        <translation>
            <numerusform>%n jeton émis au titre de cet enregistrement client</numerusform>
            <numerusform>%n jetons émis au titre de cet enregistrement client</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 request(s) allowed and %2 denied since</source>
        <translation>requêtes depuis&#xa0;: %1 autorisée(s), %2 refusée(s)</translation>
    </message>
    <message>
        <source>%1 delivery attempt(s) sent: %2 succeeded, %3 failed</source>
        <translation>tentatives de livraison envoyées&#xa0;: %1 (%2 réussie(s), %3 échouée(s))</translation>
    </message>
    <message>
        <source>%1 to %2 (client %3)</source>
        <translation>%1 à %2 (client %3)</translation>
    </message>
    <message>
        <source>Delivery %1: HTTP %2</source>
        <translation>Livraison %1&#xa0;: HTTP %2</translation>
    </message>
    <message>
        <source>Delivery %1: no answer</source>
        <translation>Livraison %1&#xa0;: pas de réponse</translation>
    </message>
    <message>
        <source>Denied (%1): %2 by %3</source>
        <translation>Refusée (%1)&#xa0;: %2 par %3</translation>
    </message>
    <message>
        <source>Allowed (%1): %2 by %3</source>
        <translation>Autorisée (%1)&#xa0;: %2 par %3</translation>
    </message>
    <message>
        <source>anonymous</source>
        <translation>anonyme</translation>
    </message>
    <message numerus="yes">
        <source>%n earlier request(s) decided otherwise after it; %1</source>
        <translation>
            <numerusform>%n requête antérieure décidée autrement après ce changement ; %1</numerusform>
            <numerusform>%n requêtes antérieures décidées autrement après ce changement ; %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Now allowed: %1 by %2</source>
        <translation>Désormais autorisée : %1 par %2</translation>
    </message>
    <message>
        <source>Now denied: %1 by %2</source>
        <translation>Désormais refusée : %1 par %2</translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n request(s))</source>
        <translation>
            <numerusform>%1 (%n requête)</numerusform>
            <numerusform>%1 (%n requêtes)</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::AuditLogModel</name>
    <message>
        <source>All kinds</source>
        <translation>Tous les types</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::ClientForm</name>
    <message>
        <source>not an absolute URL</source>
        <translation>ce n&apos;est pas une URL absolue</translation>
    </message>
    <message>
        <source>a redirect URI may not have a #fragment</source>
        <translation>une URI de redirection ne peut pas contenir de #fragment</translation>
    </message>
    <message>
        <source>http only for loopback (127.0.0.1, localhost, [::1]); use https</source>
        <translation>http uniquement pour le loopback (127.0.0.1, localhost, [::1])&#xa0;; utilisez https</translation>
    </message>
    <message>
        <source>use https, or a reverse-domain scheme such as com.example.app:/callback</source>
        <translation>utilisez https, ou un schéma en domaine inversé comme com.example.app:/callback</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 s</translation>
    </message>
    <message>
        <source>%1 min %2 s</source>
        <translation>%1 min %2 s</translation>
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
        <source>%1 h %2 min</source>
        <translation>%1 h %2 min</translation>
    </message>
    <message>
        <source>A name is required.</source>
        <translation>Un nom est requis.</translation>
    </message>
    <message>
        <source>At most %1 characters (now %2).</source>
        <translation>%1 caractères au maximum (actuellement %2).</translation>
    </message>
    <message>
        <source>Line %1: %2.</source>
        <translation>Ligne %1&#xa0;: %2.</translation>
    </message>
    <message>
        <source>authorization_code needs at least one redirect URI.</source>
        <translation>authorization_code nécessite au moins une URI de redirection.</translation>
    </message>
    <message>
        <source>Choose at least one grant type.</source>
        <translation>Choisissez au moins un type d&apos;autorisation.</translation>
    </message>
    <message>
        <source>%1 is not a supported grant type.</source>
        <translation>%1 n&apos;est pas un type d&apos;autorisation pris en charge.</translation>
    </message>
    <message>
        <source>client_credentials needs a confidential client: choose client_secret_basic or client_secret_post.</source>
        <translation>client_credentials nécessite un client confidentiel&#xa0;: choisissez client_secret_basic ou client_secret_post.</translation>
    </message>
    <message>
        <source>%1 is not a scope: scopes are separated by spaces and use printable ASCII without &quot; or \.</source>
        <translation>%1 n&apos;est pas un scope&#xa0;: les scopes sont séparés par des espaces et n&apos;utilisent que de l&apos;ASCII imprimable, sans &quot; ni \.</translation>
    </message>
    <message>
        <source>An absolute https:// URL, or leave it empty.</source>
        <translation>Une URL https:// absolue, ou laissez le champ vide.</translation>
    </message>
    <message>
        <source>&quot;%1&quot; is not an e-mail address.</source>
        <translation>«&#xa0;%1&#xa0;» n&apos;est pas une adresse e-mail.</translation>
    </message>
    <message>
        <source>A whole number of seconds.</source>
        <translation>Un nombre entier de secondes.</translation>
    </message>
    <message>
        <source>%1 to %2 seconds (24 h).</source>
        <translation>De %1 à %2 secondes (24 h).</translation>
    </message>
    <message>
        <source>A user signs in and consents in the browser; the app trades the code for tokens (with PKCE).</source>
        <translation>Connexion et consentement de l&apos;utilisateur dans le navigateur, puis échange du code (avec PKCE).</translation>
    </message>
    <message>
        <source>A service acts on its own behalf with its client secret; no user involved.</source>
        <translation>Un service agit en son propre nom avec son secret client&#xa0;; aucun utilisateur n&apos;intervient.</translation>
    </message>
    <message>
        <source>Get new access tokens without asking the user again.</source>
        <translation>Obtenir de nouveaux jetons d&apos;accès sans redemander à l&apos;utilisateur.</translation>
    </message>
    <message>
        <source>A device without a browser shows a code; the user approves on a phone or computer.</source>
        <translation>Un appareil sans navigateur affiche un code&#xa0;; l&apos;utilisateur valide sur un téléphone ou un ordinateur.</translation>
    </message>
    <message>
        <source>Trade a signed JWT assertion from a trusted issuer for an access token (RFC 7523).</source>
        <translation>Échanger l&apos;assertion JWT d&apos;un émetteur de confiance contre un jeton d&apos;accès (RFC 7523).</translation>
    </message>
    <message>
        <source>Swap one token for another, e.g. to call a downstream service (RFC 8693).</source>
        <translation>Échanger un jeton contre un autre, p. ex. pour appeler un service en aval (RFC 8693).</translation>
    </message>
    <message>
        <source>The app collects the user&apos;s password itself and sends it to the token endpoint.</source>
        <translation>L&apos;application demande elle-même le mot de passe et l&apos;envoie au point de terminaison de jeton.</translation>
    </message>
    <message>
        <source>obsolete — OAuth 2.1 removes it</source>
        <translation>obsolète — OAuth 2.1 le supprime</translation>
    </message>
    <message>
        <source>client_secret_basic (confidential)</source>
        <translation>client_secret_basic (confidentiel)</translation>
    </message>
    <message>
        <source>A server-side app; it sends its secret in the HTTP Basic header.</source>
        <translation>Une application côté serveur&#xa0;; elle envoie son secret dans l&apos;en-tête HTTP Basic.</translation>
    </message>
    <message>
        <source>client_secret_post (confidential)</source>
        <translation>client_secret_post (confidentiel)</translation>
    </message>
    <message>
        <source>A server-side app; it sends its secret in the form body.</source>
        <translation>Une application côté serveur&#xa0;; elle envoie son secret dans le corps du formulaire.</translation>
    </message>
    <message>
        <source>none (public)</source>
        <translation>none (public)</translation>
    </message>
    <message>
        <source>A browser or mobile app that cannot keep a secret; no secret is issued and authorization_code requires PKCE.</source>
        <translation>Une application web ou mobile qui ne peut pas garder de secret&#xa0;; aucun secret n&apos;est émis et authorization_code exige PKCE.</translation>
    </message>
    <message>
        <source>JWT (self-contained, signed)</source>
        <translation>JWT (autonome, signé)</translation>
    </message>
    <message>
        <source>Opaque (checked by introspection)</source>
        <translation>Opaque (vérifié par introspection)</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::ClusterSettingsState</name>
    <message>
        <source>Authorization: %1 · admission: %2</source>
        <translation>Autorisation&#xa0;: %1 · admission&#xa0;: %2</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::ConsoleAppearance</name>
    <message>
        <source>System (%1)</source>
        <translation>Système (%1)</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>Sombre</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>Clair</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::ConsoleLanguage</name>
    <message>
        <source>System (%1)</source>
        <translation>Système (%1)</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::CustomerListModel</name>
    <message>
        <source>All customers</source>
        <translation>Tous les clients</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::DashboardStats</name>
    <message>
        <source>other</source>
        <translation>autres</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::EndpointListModel</name>
    <message>
        <source>Disabled</source>
        <translation>Désactivé</translation>
    </message>
    <message>
        <source>Enabled</source>
        <translation>Activé</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::EventListModel</name>
    <message>
        <source>Backend started</source>
        <translation>Backend démarré</translation>
    </message>
    <message>
        <source>Backend %1 started</source>
        <translation>Backend %1 démarré</translation>
    </message>
    <message>
        <source>Requests: %1</source>
        <translation>Requêtes&#xa0;: %1</translation>
    </message>
    <message>
        <source>This minute: %1</source>
        <translation>Cette minute : %1</translation>
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
        <translation>%1 min</translation>
    </message>
    <message>
        <source>%1 h</source>
        <translation>%1 h</translation>
    </message>
    <message>
        <source>%1 days</source>
        <translation>%1 jours</translation>
    </message>
    <message>
        <source>expired %1 ago</source>
        <translation>expiré depuis %1</translation>
    </message>
    <message>
        <source>expires in %1:%2</source>
        <translation>expire dans %1:%2</translation>
    </message>
    <message>
        <source>expires in %1:%2:%3</source>
        <translation>expire dans %1:%2:%3</translation>
    </message>
    <message>
        <source>expires in %1 d %2 h</source>
        <translation>expire dans %1 j %2 h</translation>
    </message>
    <message>
        <source>now</source>
        <translation>maintenant</translation>
    </message>
    <message>
        <source>in %1</source>
        <translation>dans %1</translation>
    </message>
    <message>
        <source>%1 ago</source>
        <translation>il y a %1</translation>
    </message>
    <message>
        <source>Not a JSON object: %1.</source>
        <translation>Ce n&apos;est pas un objet JSON&#xa0;: %1.</translation>
    </message>
    <message>
        <source>Paste a JWK Set or one JWK (JSON), or a PEM public key or certificate.</source>
        <translation>Collez un JWK Set ou une JWK (JSON), ou une clé publique ou un certificat PEM.</translation>
    </message>
    <message>
        <source>this server&apos;s JWKS</source>
        <translation>le JWKS de ce serveur</translation>
    </message>
    <message>
        <source>the pasted JWKS</source>
        <translation>le JWKS collé</translation>
    </message>
    <message>
        <source>the pasted PEM key</source>
        <translation>la clé PEM collée</translation>
    </message>
    <message>
        <source>%1: the active signing key</source>
        <translation>%1&#xa0;: la clé de signature active</translation>
    </message>
    <message>
        <source>%1: the next key (it signs nothing yet)</source>
        <translation>%1&#xa0;: la prochaine clé (elle ne signe encore rien)</translation>
    </message>
    <message>
        <source>%1: a retired key, published until its tokens expire</source>
        <translation>%1&#xa0;: une clé retirée, publiée jusqu&apos;à l&apos;expiration de ses jetons</translation>
    </message>
    <message>
        <source>%1: not a key of this server</source>
        <translation>%1&#xa0;: ce n&apos;est pas une clé de ce serveur</translation>
    </message>
    <message>
        <source>no kid</source>
        <translation>pas de kid</translation>
    </message>
    <message>
        <source>Stored and active (expires %1)</source>
        <translation>Enregistré et actif (jusqu&apos;à %1)</translation>
    </message>
    <message>
        <source>Revoked %1</source>
        <translation>Révoqué&#xa0;: %1</translation>
    </message>
    <message>
        <source>Stored, expired</source>
        <translation>Enregistré, expiré</translation>
    </message>
    <message>
        <source>Not stored: %1</source>
        <translation>Non enregistré&#xa0;: %1</translation>
    </message>
    <message>
        <source>Client %1 no longer exists</source>
        <translation>Le client %1 n&apos;existe plus</translation>
    </message>
    <message>
        <source>Client %1 exists</source>
        <translation>Client %1 existant</translation>
    </message>
    <message>
        <source>Client %1 (%2) exists</source>
        <translation>Client %1 (%2) existant</translation>
    </message>
    <message>
        <source>User %1 no longer exists</source>
        <translation>L&apos;utilisateur %1 n&apos;existe plus</translation>
    </message>
    <message>
        <source>User %1 exists</source>
        <translation>Utilisateur %1 existant</translation>
    </message>
    <message>
        <source>User %1 (%2) exists</source>
        <translation>Utilisateur %1 (%2) existant</translation>
    </message>
    <message>
        <source>passed</source>
        <translation>réussi</translation>
    </message>
    <message>
        <source>failed</source>
        <translation>échoué</translation>
    </message>
    <message>
        <source>skipped</source>
        <translation>ignoré</translation>
    </message>
    <message>
        <source>Expires</source>
        <translation>Expire</translation>
    </message>
    <message>
        <source>Not before</source>
        <translation>Pas avant</translation>
    </message>
    <message>
        <source>Issued</source>
        <translation>Émis</translation>
    </message>
    <message>
        <source>Signed in</source>
        <translation>Connexion</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::KubeconfigForm</name>
    <message>
        <source>Give a name.</source>
        <translation>Indiquez un nom.</translation>
    </message>
    <message>
        <source>Give the node&apos;s name (node-1); the user becomes system:node:node-1.</source>
        <translation>Indiquez le nom du nœud (node-1)&#xa0;; l&apos;utilisateur devient system:node:node-1.</translation>
    </message>
    <message>
        <source>%1 · no groups · expires %2</source>
        <translation>%1 · aucun groupe · expiration&#xa0;: %2</translation>
    </message>
    <message>
        <source>%1 · groups %2 · expires %3</source>
        <translation>%1 · groupes %2 · expiration&#xa0;: %3</translation>
    </message>
    <message>
        <source>Choose a file.</source>
        <translation>Choisissez un fichier.</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>Impossible d&apos;écrire %1&#xa0;: %2</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::LiveState</name>
    <message>
        <source>Not connected</source>
        <translation>Non connecté</translation>
    </message>
    <message>
        <source>Syncing</source>
        <translation>Synchronisation</translation>
    </message>
    <message>
        <source>Live</source>
        <translation>En direct</translation>
    </message>
    <message>
        <source>Stale</source>
        <translation>Périmé</translation>
    </message>
    <message>
        <source>Not permitted</source>
        <translation>Non autorisé</translation>
    </message>
    <message>
        <source>Not loaded</source>
        <translation>Non chargé</translation>
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
        <translation>%1 j</translation>
    </message>
    <message>
        <source>last change %1 ago</source>
        <translation>dernier changement il y a %1</translation>
    </message>
    <message>
        <source>synced %1 ago</source>
        <translation>synchronisé il y a %1</translation>
    </message>
    <message>
        <source>the admin token was refused</source>
        <translation>le jeton d’administration a été refusé</translation>
    </message>
    <message>
        <source>backend unreachable, showing data from %1 ago</source>
        <translation>backend injoignable, données d’il y a %1</translation>
    </message>
    <message>
        <source>backend unreachable</source>
        <translation>backend injoignable</translation>
    </message>
    <message>
        <source>reconnecting in %1</source>
        <translation>reconnexion dans %1</translation>
    </message>
    <message>
        <source>reconnecting</source>
        <translation>reconnexion</translation>
    </message>
    <message>
        <source>resyncing; showing data from %1 ago</source>
        <translation>resynchronisation ; données d’il y a %1</translation>
    </message>
    <message>
        <source>reading the list</source>
        <translation>lecture de la liste</translation>
    </message>
    <message>
        <source>no word from the backend for %1</source>
        <translation>aucune nouvelle du backend depuis %1</translation>
    </message>
    <message>
        <source>the server&apos;s certificate is not trusted</source>
        <translation>le certificat du serveur n’est pas approuvé</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::NavigationModel</name>
    <message>
        <source>Dashboard</source>
        <translation>Synthèse</translation>
    </message>
    <message>
        <source>Listeners, request counters and the live event stream.</source>
        <translation>Écouteurs, compteurs de requêtes et flux d&apos;événements en direct.</translation>
    </message>
    <message>
        <source>Clients</source>
        <translation>Clients OAuth</translation>
    </message>
    <message>
        <source>The OAuth 2.0 / OpenID Connect client registry: register clients, grant types, redirect URIs and secrets.</source>
        <translation>Le registre des clients OAuth 2.0 / OpenID Connect&#xa0;: enregistrement des clients, types d&apos;autorisation, URI de redirection et secrets.</translation>
    </message>
    <message>
        <source>Arrives with the OAuth authorization server.</source>
        <translation>Disponible avec le serveur d&apos;autorisation OAuth.</translation>
    </message>
    <message>
        <source>Tokens &amp; JWT</source>
        <translation>Jetons et JWT</translation>
    </message>
    <message>
        <source>Issued tokens, introspection and revocation, signing keys and JWKS, and a JWT decoder.</source>
        <translation>Jetons émis, introspection et révocation, clés de signature et JWKS, et un décodeur JWT.</translation>
    </message>
    <message>
        <source>Arrives with the OAuth token issuer.</source>
        <translation>Disponible avec l&apos;émetteur de jetons OAuth.</translation>
    </message>
    <message>
        <source>Orders</source>
        <translation>Commandes</translation>
    </message>
    <message>
        <source>Customer orders and their status lifecycle, live as they change.</source>
        <translation>Les commandes des clients et le cycle de vie de leur statut, en direct.</translation>
    </message>
    <message>
        <source>Arrives with the order service.</source>
        <translation>Disponible avec le service de commandes.</translation>
    </message>
    <message>
        <source>Deliveries</source>
        <translation>Livraisons</translation>
    </message>
    <message>
        <source>Webhook deliveries: every attempt with its signature, response and retry schedule.</source>
        <translation>Livraisons de webhooks&#xa0;: chaque tentative avec sa signature, sa réponse et son calendrier de relance.</translation>
    </message>
    <message>
        <source>Arrives with the webhook dispatcher.</source>
        <translation>Disponible avec le répartiteur de webhooks.</translation>
    </message>
    <message>
        <source>Cluster nodes</source>
        <translation>Nœuds</translation>
    </message>
    <message>
        <source>Nodes and their labels, with live NodeRestriction verdicts.</source>
        <translation>Les nœuds et leurs labels, avec les verdicts NodeRestriction en direct.</translation>
    </message>
    <message>
        <source>Arrives with the cluster API.</source>
        <translation>Disponible avec l&apos;API du cluster.</translation>
    </message>
    <message>
        <source>RBAC</source>
        <translation>RBAC</translation>
    </message>
    <message>
        <source>Roles, bindings and the explained trace of every authorization decision.</source>
        <translation>Rôles, liaisons et la trace expliquée de chaque décision d&apos;autorisation.</translation>
    </message>
    <message>
        <source>Arrives with cluster authorization.</source>
        <translation>Disponible avec l&apos;autorisation du cluster.</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Paramètres</translation>
    </message>
    <message>
        <source>Audit log</source>
        <translation>Journal d&apos;audit</translation>
    </message>
    <message>
        <source>Every administrative change: who, when, what it changed field by field, and what it caused.</source>
        <translation>Chaque modification administrative&#xa0;: qui, quand, ce qu&apos;elle a changé champ par champ, et ce qu&apos;elle a entraîné.</translation>
    </message>
    <message>
        <source>Every backend setting: its value, where it came from, and whether a change applies live or at the next start.</source>
        <translation>Chaque paramètre du backend : sa valeur, son origine, et si un changement s’applique tout de suite ou au prochain démarrage.</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::NodeLabelEditor</name>
    <message>
        <source>Cluster admin</source>
        <translation>Admin du cluster</translation>
    </message>
    <message>
        <source>Node agent</source>
        <translation>Agent de nœud</translation>
    </message>
    <message>
        <source>Custom user</source>
        <translation>Utilisateur personnalisé</translation>
    </message>
    <message>
        <source>Anonymous</source>
        <translation>Anonyme</translation>
    </message>
    <message>
        <source>%1 · no groups</source>
        <translation>%1 · aucun groupe</translation>
    </message>
    <message>
        <source>%1 · groups %2</source>
        <translation>%1 · groupes %2</translation>
    </message>
    <message>
        <source>%1 · no credentials at all</source>
        <translation>%1 · aucun identifiant</translation>
    </message>
    <message>
        <source>Give the name of the node the agent runs on.</source>
        <translation>Indiquez le nom du nœud sur lequel tourne l&apos;agent.</translation>
    </message>
    <message>
        <source>Give a user name.</source>
        <translation>Indiquez un nom d&apos;utilisateur.</translation>
    </message>
    <message>
        <source>not reached</source>
        <translation>non atteinte</translation>
    </message>
    <message>
        <source>Authentication</source>
        <translation>Authentification</translation>
    </message>
    <message>
        <source>Authorization</source>
        <translation>Autorisation</translation>
    </message>
    <message>
        <source>Not reached: the request was refused before authorization.</source>
        <translation>Non atteinte&#xa0;: la requête a été refusée avant l&apos;autorisation.</translation>
    </message>
    <message>
        <source>%1 %2 grants %3 %4, rules[%5], to %6 %7</source>
        <translation>%1 %2 accorde %3 %4, rules[%5], à %6 %7</translation>
    </message>
    <message>
        <source>Allowed by the %1 authorizer.</source>
        <translation>Autorisée par le module d&apos;autorisation %1.</translation>
    </message>
    <message>
        <source>Allowed by %1: %2</source>
        <translation>Autorisée par %1&#xa0;: %2</translation>
    </message>
    <message>
        <source>Denied by the %1 authorizer.</source>
        <translation>Refusée par le module d&apos;autorisation %1.</translation>
    </message>
    <message>
        <source>Denied by %1: %2</source>
        <translation>Refusée par %1&#xa0;: %2</translation>
    </message>
    <message>
        <source>No authorizer allowed it (%1). %2</source>
        <translation>Aucun module d&apos;autorisation ne l&apos;a autorisée (%1). %2</translation>
    </message>
    <message>
        <source>Admission</source>
        <translation>Admission</translation>
    </message>
    <message>
        <source>Not reached: the request was refused before admission.</source>
        <translation>Non atteinte&#xa0;: la requête a été refusée avant l&apos;admission.</translation>
    </message>
    <message>
        <source>No admission plugin is enabled.</source>
        <translation>Aucun plugin d&apos;admission n&apos;est activé.</translation>
    </message>
    <message>
        <source>Admitted by %1.</source>
        <translation>Admise par %1.</translation>
    </message>
    <message>
        <source>Validation</source>
        <translation>Validation</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1&#xa0;: %2</translation>
    </message>
    <message>
        <source>Labels saved: %1 is at resourceVersion %2.</source>
        <translation>Labels enregistrés&#xa0;: %1 est à la resourceVersion %2.</translation>
    </message>
    <message>
        <source>Webhook %1: failed in %2 ms, ignored (failurePolicy Ignore): %3</source>
        <translation>Webhook %1 : échec après %2 ms, ignoré (failurePolicy Ignore) : %3</translation>
    </message>
    <message>
        <source>Webhook %1: allowed and changed the object (%2 ms)</source>
        <translation>Webhook %1 : autorisé, objet modifié (%2 ms)</translation>
    </message>
    <message>
        <source>Webhook %1: allowed (%2 ms)</source>
        <translation>Webhook %1 : autorisé (%2 ms)</translation>
    </message>
    <message>
        <source>Webhook %1: refused (%2 ms)</source>
        <translation>Webhook %1 : refusé (%2 ms)</translation>
    </message>
    <message>
        <source>Admission webhooks were not asked: that needs an admin token with cluster:write, so the real answer may differ.</source>
        <translation>Les webhooks d&apos;admission n&apos;ont pas été consultés&#xa0;: il faut pour cela un jeton d&apos;administration avec cluster:write, la vraie réponse peut donc différer.</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::NodeLabelModel</name>
    <message>
        <source>added</source>
        <translation>ajouté</translation>
    </message>
    <message>
        <source>removed</source>
        <translation>supprimé</translation>
    </message>
    <message>
        <source>changed</source>
        <translation>modifié</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::NodeListModel</name>
    <message>
        <source>Ready</source>
        <translation>Prêt</translation>
    </message>
    <message>
        <source>Not ready</source>
        <translation>Pas prêt</translation>
    </message>
    <message>
        <source>Unknown</source>
        <translation>Inconnu</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::RbacListModel</name>
    <message>
        <source>cluster-wide</source>
        <translation>tout le cluster</translation>
    </message>
    <message>
        <source>namespace %1</source>
        <translation>namespace %1</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::RbacRoleModel</name>
    <message>
        <source>%1 on %2</source>
        <translation>%1 sur %2</translation>
    </message>
    <message>
        <source>core</source>
        <translation>core</translation>
    </message>
    <message>
        <source>%1 on %2 (%3)</source>
        <translation>%1 sur %2 (%3)</translation>
    </message>
    <message>
        <source>named %1</source>
        <translation>portant le nom %1</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::RedeliveryForm</name>
    <message>
        <source>Failed</source>
        <translation>Échouée</translation>
    </message>
    <message>
        <source>Succeeded</source>
        <translation>Réussie</translation>
    </message>
    <message>
        <source>Failed or succeeded</source>
        <translation>Échouée ou réussie</translation>
    </message>
    <message>
        <source>Running</source>
        <translation>En cours</translation>
    </message>
    <message>
        <source>Completed</source>
        <translation>Terminée</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Annulée</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::SettingsModel</name>
    <message>
        <source>Listeners</source>
        <translation>Écouteurs</translation>
    </message>
    <message>
        <source>Connection limits</source>
        <translation>Limites de connexion</translation>
    </message>
    <message>
        <source>Authorization server</source>
        <translation>Serveur d’autorisation</translation>
    </message>
    <message>
        <source>Orders and webhooks</source>
        <translation>Commandes et webhooks</translation>
    </message>
    <message>
        <source>Cluster API</source>
        <translation>API du cluster</translation>
    </message>
    <message>
        <source>Storage</source>
        <translation>Stockage</translation>
    </message>
    <message>
        <source>default</source>
        <translation>par défaut</translation>
    </message>
    <message>
        <source>changed through the admin API</source>
        <translation>modifié via l’API d’administration</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::TokenListModel</name>
    <message>
        <source>expires in %1</source>
        <translation>expire dans %1</translation>
    </message>
    <message>
        <source>scope %1</source>
        <translation>scope %1</translation>
    </message>
    <message>
        <source>Access token</source>
        <translation>Accès</translation>
    </message>
    <message>
        <source>Refresh token</source>
        <translation>Actualisation</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::TokenPreview</name>
    <message>
        <source>this server</source>
        <translation>ce serveur</translation>
    </message>
    <message>
        <source>client record</source>
        <translation>enregistrement client</translation>
    </message>
    <message>
        <source>the request</source>
        <translation>la requête</translation>
    </message>
    <message>
        <source>requested scope</source>
        <translation>scope demandé</translation>
    </message>
    <message>
        <source>user attribute</source>
        <translation>attribut utilisateur</translation>
    </message>
    <message>
        <source>group</source>
        <translation>groupe</translation>
    </message>
    <message>
        <source>subject token</source>
        <translation>jeton sujet</translation>
    </message>
    <message>
        <source>actor token</source>
        <translation>jeton acteur</translation>
    </message>
    <message>
        <source>exchange policy</source>
        <translation>règle d&apos;échange</translation>
    </message>
    <message>
        <source>time</source>
        <translation>heure</translation>
    </message>
    <message>
        <source>random</source>
        <translation>aléatoire</translation>
    </message>
    <message>
        <source>The token names no client (client_id or azp).</source>
        <translation>Le jeton ne nomme aucun client (client_id ou azp).</translation>
    </message>
</context>
<context>
    <name>Gatehouse::Console::WhoCanModel</name>
    <message>
        <source>%1, cluster-wide</source>
        <translation>%1, dans tout le cluster</translation>
    </message>
    <message>
        <source>%1 in namespace %2</source>
        <translation>%1 dans le namespace %2</translation>
    </message>
</context>
<context>
    <name>GuidedTour</name>
    <message>
        <source>The backend at a glance</source>
        <translation>Le backend en un coup d’œil</translation>
    </message>
    <message>
        <source>Live counters: orders per minute, webhook deliveries, tokens by grant type and cluster verdicts. Each tile opens its page. The demo has placed three test orders; watch them arrive.</source>
        <translation>Compteurs en direct : commandes par minute, livraisons de webhooks, jetons par type d’octroi et décisions du cluster. Chaque tuile ouvre sa page. La démo a passé trois commandes de test ; regardez-les arriver.</translation>
    </message>
    <message>
        <source>Orders and their lifecycle</source>
        <translation>Les commandes et leur cycle de vie</translation>
    </message>
    <message>
        <source>Select an order to see its lines, status history and webhook deliveries. “Place test order…” starts a new one; it moves through validation and allocation on its own, and every status change is signed and delivered to the demo receiver.</source>
        <translation>Sélectionnez une commande pour voir ses lignes, l’historique de ses statuts et ses livraisons de webhooks. « Commande de test… » en lance une nouvelle ; elle passe seule la validation et l’allocation, et chaque changement de statut est signé et livré au récepteur de démo.</translation>
    </message>
    <message>
        <source>Webhook deliveries</source>
        <translation>Livraisons de webhooks</translation>
    </message>
    <message>
        <source>Every attempt with its signature headers, answer and retry schedule. Select a failed one and redeliver it, or redeliver many at a safe rate with “Redeliver…”.</source>
        <translation>Chaque tentative avec ses en-têtes de signature, sa réponse et son calendrier de nouvelles tentatives. Sélectionnez une livraison échouée et relivrez-la, ou relivrez-en beaucoup à un rythme sûr avec « Relivrer… ».</translation>
    </message>
    <message>
        <source>OAuth clients</source>
        <translation>Clients OAuth</translation>
    </message>
    <message>
        <source>Three demo clients: a public web app (authorization code with PKCE), a service (client credentials) and a legacy till (password grant, marked obsolete). “Preview token…” shows what a client would get and where each claim comes from.</source>
        <translation>Trois clients de démo : une application web publique (code d’autorisation avec PKCE), un service (client credentials) et une ancienne caisse (octroi par mot de passe, marqué obsolète). « Aperçu du jeton… » montre ce qu’un client obtiendrait et d’où vient chaque claim.</translation>
    </message>
    <message>
        <source>Tokens and the JWT decoder</source>
        <translation>Les jetons et le décodeur JWT</translation>
    </message>
    <message>
        <source>Mint a token for the Inventory service, then decode it: every check (signature, expiry, audience) with a verdict, and whether this server still knows it. The demo users are alice and bob, password “gatehouse-demo”.</source>
        <translation>Émettez un jeton pour l’Inventory service, puis décodez-le : chaque vérification (signature, expiration, audience) avec son verdict, et si ce serveur le connaît encore. Les utilisateurs de démo sont alice et bob, mot de passe « gatehouse-demo ».</translation>
    </message>
    <message>
        <source>Cluster nodes and live verdicts</source>
        <translation>Nœuds du cluster et décisions en direct</translation>
    </message>
    <message>
        <source>Act as the node agent of node-1 and change a label of node-2: NodeRestriction refuses, and “Why denied” says which rule and which binding. Act as alice (group devs) and the node-labeler binding allows it.</source>
        <translation>Agissez comme l’agent du nœud node-1 et changez un label de node-2 : NodeRestriction refuse, et « Pourquoi refusé » indique la règle et le binding. En tant qu’alice (groupe devs), le binding node-labeler l’autorise.</translation>
    </message>
    <message>
        <source>RBAC</source>
        <translation>RBAC</translation>
    </message>
    <message>
        <source>Roles and bindings with the demo&apos;s node-labeler and pod-reader, who can do what, and every recent request with its verdict. “Effective access…” lists everything a subject holds, and why.</source>
        <translation>Les rôles et bindings avec node-labeler et pod-reader de la démo, qui peut faire quoi, et chaque requête récente avec son verdict. « Accès effectif… » liste tout ce qu’un sujet détient, et pourquoi.</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Paramètres</translation>
    </message>
    <message>
        <source>Turn anonymous access off: it applies at once, and the cluster answers 401 to anonymous requests. Other settings are kept for the next start.</source>
        <translation>Désactivez l’accès anonyme : c’est immédiat, et le cluster répond 401 aux requêtes anonymes. Les autres paramètres sont gardés pour le prochain démarrage.</translation>
    </message>
    <message>
        <source>The audit log</source>
        <translation>Le journal d’audit</translation>
    </message>
    <message>
        <source>Every change above — by you or by the demo — with who made it, what changed field by field, and what it caused next. That is the end of the tour.</source>
        <translation>Chaque changement ci-dessus — par vous ou par la démo — avec son auteur, ce qui a changé champ par champ, et ce qu’il a entraîné. C’est la fin de la visite.</translation>
    </message>
    <message>
        <source>Guided tour</source>
        <translation>Visite guidée</translation>
    </message>
    <message>
        <source>%1 of %2</source>
        <translation>%1 sur %2</translation>
    </message>
    <message>
        <source>End tour</source>
        <translation>Terminer</translation>
    </message>
    <message>
        <source>End the guided tour</source>
        <translation>Terminer la visite guidée</translation>
    </message>
    <message>
        <source>Back</source>
        <translation>Retour</translation>
    </message>
    <message>
        <source>Finish</source>
        <translation>Terminer</translation>
    </message>
    <message>
        <source>Next</source>
        <translation>Suivant</translation>
    </message>
    <message>
        <source>Finish the tour</source>
        <translation>Terminer la visite</translation>
    </message>
    <message>
        <source>Next page of the tour</source>
        <translation>Page suivante de la visite</translation>
    </message>
    <message>
        <source>Guided tour: %1</source>
        <translation>Visite guidée : %1</translation>
    </message>
</context>
<context>
    <name>HistoryTimeline</name>
    <message>
        <source>Status history</source>
        <translation>Historique des statuts</translation>
    </message>
    <message>
        <source>%1 at %2</source>
        <translation>%1 à %2</translation>
    </message>
</context>
<context>
    <name>IdentityCard</name>
    <message>
        <source>Act as</source>
        <translation>Agir en tant que</translation>
    </message>
    <message>
        <source>Identity to act as</source>
        <translation>Identité sous laquelle agir</translation>
    </message>
    <message>
        <source>Node the agent runs on</source>
        <translation>Nœud de l&apos;agent</translation>
    </message>
    <message>
        <source>Name of the node the agent runs on</source>
        <translation>Nom du nœud sur lequel tourne l&apos;agent</translation>
    </message>
    <message>
        <source>User name</source>
        <translation>Nom d&apos;utilisateur</translation>
    </message>
    <message>
        <source>User name to act as</source>
        <translation>Nom d&apos;utilisateur sous lequel agir</translation>
    </message>
    <message>
        <source>Groups, comma-separated</source>
        <translation>Groupes, séparés par des virgules</translation>
    </message>
    <message>
        <source>Groups of the user, comma-separated</source>
        <translation>Groupes de l&apos;utilisateur, séparés par des virgules</translation>
    </message>
    <message>
        <source>Anonymous access is off: a request without credentials is refused as unauthorized.</source>
        <translation>L&apos;accès anonyme est désactivé&#xa0;: une requête sans identifiants est refusée comme non authentifiée.</translation>
    </message>
</context>
<context>
    <name>JwtCheckList</name>
    <message>
        <source>Checks</source>
        <translation>Vérifications</translation>
    </message>
    <message>
        <source>%1 %2: %3</source>
        <translation>%1 %2&#xa0;: %3</translation>
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
        <translation>Collez un JWT (eyJ…)&#xa0;; il est décodé dès que vous cessez de taper.</translation>
    </message>
    <message>
        <source>JWT to decode</source>
        <translation>JWT à décoder</translation>
    </message>
    <message>
        <source>Verification key (optional)</source>
        <translation>Clé de vérification (facultative)</translation>
    </message>
    <message>
        <source>Empty: this server&apos;s JWKS. Or paste a JWK Set, one JWK, or a PEM public key or certificate.</source>
        <translation>Vide&#xa0;: le JWKS de ce serveur. Ou collez un JWK Set, une JWK, ou une clé publique ou un certificat PEM.</translation>
    </message>
    <message>
        <source>Verification key: a JWKS, a JWK or a PEM key</source>
        <translation>Clé de vérification&#xa0;: un JWKS, une JWK ou une clé PEM</translation>
    </message>
    <message>
        <source>Expected audience</source>
        <translation>Audience attendue</translation>
    </message>
    <message>
        <source>Expected issuer</source>
        <translation>Émetteur attendu</translation>
    </message>
    <message>
        <source>not checked</source>
        <translation>non vérifié</translation>
    </message>
    <message>
        <source>this server</source>
        <translation>ce serveur</translation>
    </message>
    <message>
        <source>Decode and verify</source>
        <translation>Décoder et vérifier</translation>
    </message>
    <message>
        <source>Decode and verify the JWT</source>
        <translation>Décoder et vérifier le JWT</translation>
    </message>
    <message>
        <source>Clear</source>
        <translation>Effacer</translation>
    </message>
    <message>
        <source>Clear the decoder</source>
        <translation>Effacer le décodeur</translation>
    </message>
</context>
<context>
    <name>JwtResultCard</name>
    <message>
        <source>Paste a token, or mint a demo token above, to see its header, payload, times and whether this server would accept it.</source>
        <translation>Collez un jeton, ou émettez un jeton de démo ci-dessus, pour voir son en-tête, sa charge utile, ses dates et si ce serveur l&apos;accepterait.</translation>
    </message>
    <message>
        <source>No exp claim: this token never expires.</source>
        <translation>Pas de claim exp&#xa0;: ce jeton n&apos;expire jamais.</translation>
    </message>
    <message>
        <source>Key: %1</source>
        <translation>Clé&#xa0;: %1</translation>
    </message>
    <message>
        <source>Warning: %1</source>
        <translation>Avertissement&#xa0;: %1</translation>
    </message>
    <message>
        <source>Compare with what this client would get now</source>
        <translation>Comparer avec ce que ce client obtiendrait maintenant</translation>
    </message>
    <message>
        <source>The client would get the same claims now (apart from iat, exp and jti).</source>
        <translation>Le client obtiendrait maintenant les mêmes claims (hormis iat, exp et jti).</translation>
    </message>
    <message numerus="yes">
        <source>%n claim(s) would differ now:</source>
        <translation>
            <numerusform>%n claim serait différent maintenant&#xa0;:</numerusform>
            <numerusform>%n claims seraient différents maintenant&#xa0;:</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: this token %2, now %3</source>
        <translation>%1&#xa0;: ce jeton %2, maintenant %3</translation>
    </message>
    <message>
        <source>(none)</source>
        <translation>(aucun)</translation>
    </message>
    <message>
        <source>Header</source>
        <translation>En-tête</translation>
    </message>
    <message>
        <source>JWT header</source>
        <translation>En-tête du JWT</translation>
    </message>
    <message>
        <source>Payload</source>
        <translation>Charge utile</translation>
    </message>
    <message>
        <source>JWT payload</source>
        <translation>Charge utile du JWT</translation>
    </message>
</context>
<context>
    <name>JwtServerFacts</name>
    <message>
        <source>On this server</source>
        <translation>Sur ce serveur</translation>
    </message>
    <message>
        <source>Issued here</source>
        <translation>Émis ici</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>oui</translation>
    </message>
    <message>
        <source>no: not signed with this server&apos;s keys</source>
        <translation>non&#xa0;: pas signé avec les clés de ce serveur</translation>
    </message>
    <message>
        <source>Signing key</source>
        <translation>Clé de signature</translation>
    </message>
    <message>
        <source>Stored token</source>
        <translation>Jeton enregistré</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>Révoquer</translation>
    </message>
    <message>
        <source>Revoke this token</source>
        <translation>Révoquer ce jeton</translation>
    </message>
    <message>
        <source>Client</source>
        <translation>Client</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Utilisateur</translation>
    </message>
</context>
<context>
    <name>JwtTimeClaims</name>
    <message>
        <source>Times</source>
        <translation>Dates</translation>
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
        <translation>Émet un certificat client signé par l&apos;autorité de certification du cluster et un kubeconfig qui l&apos;utilise. Seule la version expurgée s&apos;affiche ici&#xa0;; Enregistrer écrit la vraie, lisible par vous seul.</translation>
    </message>
    <message>
        <source>User</source>
        <translation>Utilisateur</translation>
    </message>
    <message>
        <source>A kubeconfig for a user</source>
        <translation>Un kubeconfig pour un utilisateur</translation>
    </message>
    <message>
        <source>Node agent</source>
        <translation>Agent de nœud</translation>
    </message>
    <message>
        <source>A kubeconfig for a node agent (kubelet)</source>
        <translation>Un kubeconfig pour un agent de nœud (kubelet)</translation>
    </message>
    <message>
        <source>Node</source>
        <translation>Nœud</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>node-1 (the user becomes system:node:node-1)</source>
        <translation>node-1 (l&apos;utilisateur devient system:node:node-1)</translation>
    </message>
    <message>
        <source>alice</source>
        <translation>alice</translation>
    </message>
    <message>
        <source>Name of the node</source>
        <translation>Nom du nœud</translation>
    </message>
    <message>
        <source>User name</source>
        <translation>Nom d&apos;utilisateur</translation>
    </message>
    <message>
        <source>Groups</source>
        <translation>Groupes</translation>
    </message>
    <message>
        <source>extra groups besides system:nodes (optional)</source>
        <translation>groupes en plus de system:nodes (facultatif)</translation>
    </message>
    <message>
        <source>devs, ops (optional)</source>
        <translation>devs, ops (facultatif)</translation>
    </message>
    <message>
        <source>Groups, comma-separated</source>
        <translation>Groupes, séparés par des virgules</translation>
    </message>
    <message>
        <source>Issue another</source>
        <translation>En émettre un autre</translation>
    </message>
    <message>
        <source>Issue</source>
        <translation>Émettre</translation>
    </message>
    <message>
        <source>Issue a certificate and kubeconfig</source>
        <translation>Émettre un certificat et un kubeconfig</translation>
    </message>
    <message>
        <source>The kubeconfig, with its keys and certificates omitted</source>
        <translation>Le kubeconfig, sans ses clés ni ses certificats</translation>
    </message>
    <message>
        <source>Saved to %1 (mode 0600: readable by you only).</source>
        <translation>Enregistré dans %1 (mode 0600&#xa0;: lisible par vous seul).</translation>
    </message>
    <message>
        <source>Save kubeconfig…</source>
        <translation>Enregistrer le kubeconfig…</translation>
    </message>
    <message>
        <source>Save the kubeconfig with its private key to a file</source>
        <translation>Enregistrer le kubeconfig et sa clé privée dans un fichier</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
    <message>
        <source>Close; an unsaved kubeconfig is forgotten</source>
        <translation>Fermer&#xa0;; un kubeconfig non enregistré est perdu</translation>
    </message>
</context>
<context>
    <name>LabelsCard</name>
    <message>
        <source>Labels of %1</source>
        <translation>Labels de %1</translation>
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
        <translation>Choisissez un nœud à gauche.</translation>
    </message>
    <message>
        <source>Value of label %1</source>
        <translation>Valeur du label %1</translation>
    </message>
    <message>
        <source>Restore label %1</source>
        <translation>Restaurer le label %1</translation>
    </message>
    <message>
        <source>Remove label %1</source>
        <translation>Supprimer le label %1</translation>
    </message>
    <message>
        <source>New key, e.g. example.com/rack</source>
        <translation>Nouvelle clé, p. ex. example.com/rack</translation>
    </message>
    <message>
        <source>Key of a new label</source>
        <translation>Clé d&apos;un nouveau label</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>Valeur</translation>
    </message>
    <message>
        <source>Value of the new label</source>
        <translation>Valeur du nouveau label</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>Ajouter</translation>
    </message>
    <message>
        <source>Add the new label to the table</source>
        <translation>Ajouter le nouveau label au tableau</translation>
    </message>
    <message>
        <source>Pending change: %1</source>
        <translation>Modification en attente&#xa0;: %1</translation>
    </message>
    <message>
        <source>No pending change: the verdict is for an empty label patch.</source>
        <translation>Aucune modification en attente&#xa0;: le verdict porte sur un patch de labels vide.</translation>
    </message>
</context>
<context>
    <name>ListHeader</name>
    <message>
        <source>Reload</source>
        <translation>Recharger</translation>
    </message>
    <message>
        <source>Reload this list</source>
        <translation>Recharger cette liste</translation>
    </message>
</context>
<context>
    <name>LiveBadge</name>
    <message>
        <source>%1: %2</source>
        <translation>%1 : %2</translation>
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
        <translation>Pages</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>Guided tour</source>
        <translation>Visite guidée</translation>
    </message>
    <message>
        <source>Start the guided tour</source>
        <translation>Lancer la visite guidée</translation>
    </message>
</context>
<context>
    <name>NewCustomerDialog</name>
    <message>
        <source>New customer</source>
        <translation>Nouveau client</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>e.g. Biergarten Nord</source>
        <translation>p. ex. Biergarten Nord</translation>
    </message>
    <message>
        <source>Customer name</source>
        <translation>Nom du client</translation>
    </message>
    <message>
        <source>Create</source>
        <translation>Créer</translation>
    </message>
    <message>
        <source>Create the customer</source>
        <translation>Créer le client</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>NodeListCard</name>
    <message>
        <source>Nodes (%1)</source>
        <translation>Nœuds (%1)</translation>
    </message>
    <message>
        <source>Nodes</source>
        <translation>Nœuds</translation>
    </message>
    <message>
        <source>1 label</source>
        <translation>1 label</translation>
    </message>
    <message>
        <source>%1 labels</source>
        <translation>%1 labels</translation>
    </message>
    <message>
        <source>%1, %2, %3</source>
        <translation>%1, %2, %3</translation>
    </message>
    <message>
        <source>No nodes. A kubelet registers its node through the cluster API.</source>
        <translation>Aucun nœud. Un kubelet enregistre son nœud via l&apos;API du cluster.</translation>
    </message>
</context>
<context>
    <name>NodesPage</name>
    <message>
        <source>Edit a node&apos;s labels as someone else: the server explains every change before you apply it.</source>
        <translation>Modifiez les labels d&apos;un nœud sous une autre identité&#xa0;: chaque changement est expliqué.</translation>
    </message>
    <message>
        <source>Anonymous access</source>
        <translation>Accès anonyme</translation>
    </message>
    <message>
        <source>Anonymous access to the cluster API (applies at once)</source>
        <translation>Accès anonyme à l&apos;API du cluster (effet immédiat)</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Recharger</translation>
    </message>
    <message>
        <source>Reload the nodes</source>
        <translation>Recharger les nœuds</translation>
    </message>
</context>
<context>
    <name>NotPermittedPane</name>
    <message>
        <source>Not permitted</source>
        <translation>Non autorisé</translation>
    </message>
    <message>
        <source>This admin token may not read this view. Connect with a token that may, e.g. one from “gatehouse admin admin-tokens create NAME --allow AREA:read”.</source>
        <translation>Ce jeton d’administration ne peut pas lire cette vue. Connectez-vous avec un jeton qui le peut, par exemple créé par « gatehouse admin admin-tokens create NOM --allow DOMAINE:read ».</translation>
    </message>
    <message>
        <source>Not permitted: %1</source>
        <translation>Non autorisé : %1</translation>
    </message>
</context>
<context>
    <name>OrderDelegate</name>
    <message>
        <source>Order %1, %2, %3</source>
        <translation>Commande %1, %2, %3</translation>
    </message>
    <message>
        <source>Lines %1 · Qty %2</source>
        <translation>Lignes %1 · Qté %2</translation>
    </message>
</context>
<context>
    <name>OrderStatus</name>
    <message>
        <source>New</source>
        <translation>Nouvelle</translation>
    </message>
    <message>
        <source>Validation pending</source>
        <translation>Validation en cours</translation>
    </message>
    <message>
        <source>Validated</source>
        <translation>Validée</translation>
    </message>
    <message>
        <source>Validation exception</source>
        <translation>Échec de validation</translation>
    </message>
    <message>
        <source>Allocation pending</source>
        <translation>Réservation en cours</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>Réservée</translation>
    </message>
    <message>
        <source>Pending inventory</source>
        <translation>En attente de stock</translation>
    </message>
    <message>
        <source>Allocation exception</source>
        <translation>Échec de réservation</translation>
    </message>
    <message>
        <source>Picked up</source>
        <translation>Retirée</translation>
    </message>
    <message>
        <source>Delivered</source>
        <translation>Livrée</translation>
    </message>
    <message>
        <source>Cancelled</source>
        <translation>Annulée</translation>
    </message>
    <message>
        <source>All statuses</source>
        <translation>Tous les statuts</translation>
    </message>
</context>
<context>
    <name>OrdersPage</name>
    <message>
        <source>Orders</source>
        <translation>Commandes</translation>
    </message>
    <message>
        <source>Customers</source>
        <translation>Clients</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>Statut</translation>
    </message>
    <message>
        <source>Filter by status</source>
        <translation>Filtrer par statut</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Client</translation>
    </message>
    <message>
        <source>Filter by customer</source>
        <translation>Filtrer par client</translation>
    </message>
    <message>
        <source>%1 shown</source>
        <translation>%1 dans la liste</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Recharger</translation>
    </message>
    <message>
        <source>Reload the orders</source>
        <translation>Recharger les commandes</translation>
    </message>
    <message>
        <source>Place test order…</source>
        <translation>Commande de test…</translation>
    </message>
    <message>
        <source>Place a test order</source>
        <translation>Passer une commande de test</translation>
    </message>
    <message>
        <source>No orders match the filter.</source>
        <translation>Aucune commande ne correspond au filtre.</translation>
    </message>
    <message>
        <source>No orders yet. Place a test order to see one go through its lifecycle.</source>
        <translation>Aucune commande pour l&apos;instant. Passez une commande de test pour suivre son cycle de vie.</translation>
    </message>
    <message>
        <source>Select an order to see its lines, status history and webhook deliveries.</source>
        <translation>Sélectionnez une commande pour voir ses lignes, l&apos;historique de ses statuts et ses livraisons de webhooks.</translation>
    </message>
    <message>
        <source>Order %1</source>
        <translation>Commande %1</translation>
    </message>
    <message>
        <source>Pick up</source>
        <translation>Retirer</translation>
    </message>
    <message>
        <source>Mark the order as picked up</source>
        <translation>Marquer la commande comme retirée</translation>
    </message>
    <message>
        <source>Deliver</source>
        <translation>Livrer</translation>
    </message>
    <message>
        <source>Mark the order as delivered</source>
        <translation>Marquer la commande comme livrée</translation>
    </message>
    <message>
        <source>Cancel order</source>
        <translation>Annuler la commande</translation>
    </message>
    <message>
        <source>Cancel the order</source>
        <translation>Annuler la commande</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Référence</translation>
    </message>
    <message>
        <source>Order id</source>
        <translation>ID de commande</translation>
    </message>
    <message>
        <source>Created</source>
        <translation>Créée</translation>
    </message>
    <message>
        <source>Last change</source>
        <translation>Dernière modification</translation>
    </message>
    <message>
        <source>%1 (version %2)</source>
        <translation>%1 (version %2)</translation>
    </message>
    <message>
        <source>Status callback</source>
        <translation>Rappel de statut</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>Lines</source>
        <translation>Lignes</translation>
    </message>
    <message>
        <source>Beer</source>
        <translation>Bière</translation>
    </message>
    <message>
        <source>UPC</source>
        <translation>UPC</translation>
    </message>
    <message>
        <source>Allocated</source>
        <translation>Réservé</translation>
    </message>
    <message>
        <source>Not in the catalog</source>
        <translation>Absente du catalogue</translation>
    </message>
    <message>
        <source>%1 / %2</source>
        <translation>%1 / %2</translation>
    </message>
    <message>
        <source>No lines.</source>
        <translation>Aucune ligne.</translation>
    </message>
    <message>
        <source>Status history</source>
        <translation>Historique des statuts</translation>
    </message>
    <message>
        <source>Webhook deliveries</source>
        <translation>Livraisons de webhooks</translation>
    </message>
    <message>
        <source>No deliveries yet.</source>
        <translation>Aucune livraison pour l&apos;instant.</translation>
    </message>
    <message>
        <source>This order has no status callback URL, so no webhooks are sent.</source>
        <translation>Cette commande n&apos;a pas d&apos;URL de rappel de statut&#xa0;: aucun webhook n&apos;est envoyé.</translation>
    </message>
    <message>
        <source>Loading older orders…</source>
        <translation>Chargement des commandes plus anciennes…</translation>
    </message>
    <message>
        <source>Older orders: scroll on to load them</source>
        <translation>Commandes plus anciennes : continuez à faire défiler pour les charger</translation>
    </message>
    <message>
        <source>Release orders</source>
        <translation>Libérer les commandes</translation>
    </message>
    <message>
        <source>Hold orders</source>
        <translation>Retenir les commandes</translation>
    </message>
    <message>
        <source>Release the order lifecycle</source>
        <translation>Libérer le cycle de vie des commandes</translation>
    </message>
    <message>
        <source>Hold the order lifecycle</source>
        <translation>Retenir le cycle de vie des commandes</translation>
    </message>
    <message>
        <source>Validate and allocate the waiting orders, oldest first</source>
        <translation>Valider et allouer les commandes en attente, la plus ancienne d’abord</translation>
    </message>
    <message>
        <source>Accept new orders but keep them in NEW until released</source>
        <translation>Accepter les nouvelles commandes mais les garder en NEW jusqu’à la libération</translation>
    </message>
    <message>
        <source>Lifecycle held</source>
        <translation>Cycle de vie retenu</translation>
    </message>
    <message numerus="yes">
        <source>%n order(s) wait in NEW. New orders are accepted and announced; they are validated and allocated once released.</source>
        <translation>
            <numerusform>%n commande attend en NEW. Les nouvelles commandes sont acceptées et annoncées ; elles seront validées et allouées une fois libérées.</numerusform>
            <numerusform>%n commandes attendent en NEW. Les nouvelles commandes sont acceptées et annoncées ; elles seront validées et allouées une fois libérées.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>RbacPage</name>
    <message>
        <source>Roles (%1)</source>
        <translation>Rôles (%1)</translation>
    </message>
    <message>
        <source>Bindings (%1)</source>
        <translation>Liaisons (%1)</translation>
    </message>
    <message>
        <source>Who can</source>
        <translation>Qui peut</translation>
    </message>
    <message>
        <source>Requests (%1, %2 denied)</source>
        <translation>Requêtes (%1, refusées&#xa0;: %2)</translation>
    </message>
    <message>
        <source>Requests (%1)</source>
        <translation>Requêtes (%1)</translation>
    </message>
    <message>
        <source>Effective access…</source>
        <translation>Accès effectif…</translation>
    </message>
    <message>
        <source>What an identity may do in the cluster</source>
        <translation>Ce qu&apos;une identité peut faire dans le cluster</translation>
    </message>
    <message>
        <source>Kubeconfig…</source>
        <translation>Kubeconfig…</translation>
    </message>
    <message>
        <source>Issue a kubeconfig for a user or a node agent</source>
        <translation>Émettre un kubeconfig pour un utilisateur ou un agent de nœud</translation>
    </message>
    <message>
        <source>Save kubeconfig</source>
        <translation>Enregistrer le kubeconfig</translation>
    </message>
    <message>
        <source>Save</source>
        <translation>Enregistrer</translation>
    </message>
    <message>
        <source>Kubeconfig files (*.kubeconfig *.yaml)</source>
        <translation>Fichiers kubeconfig (*.kubeconfig *.yaml)</translation>
    </message>
    <message>
        <source>All files (*)</source>
        <translation>Tous les fichiers (*)</translation>
    </message>
</context>
<context>
    <name>RedeliverDialog</name>
    <message>
        <source>Redeliver webhooks</source>
        <translation>Renvoyer des webhooks</translation>
    </message>
    <message>
        <source>Sends finished deliveries again, each with a new manual attempt and the same webhook-id, at most the given number a second.</source>
        <translation>Renvoie des livraisons terminées, chacune avec une nouvelle tentative manuelle et le même webhook-id, au plus le nombre indiqué par seconde.</translation>
    </message>
    <message>
        <source>State</source>
        <translation>État</translation>
    </message>
    <message>
        <source>Deliveries in this state</source>
        <translation>Livraisons dans cet état</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Client</translation>
    </message>
    <message>
        <source>any customer (id)</source>
        <translation>tout client (ID)</translation>
    </message>
    <message>
        <source>Customer id</source>
        <translation>ID du client</translation>
    </message>
    <message>
        <source>Order</source>
        <translation>Commande</translation>
    </message>
    <message>
        <source>any order (id)</source>
        <translation>toute commande (ID)</translation>
    </message>
    <message>
        <source>Order id</source>
        <translation>ID de commande</translation>
    </message>
    <message>
        <source>Endpoint</source>
        <translation>Point de terminaison</translation>
    </message>
    <message>
        <source>any endpoint (id)</source>
        <translation>tout point de terminaison (ID)</translation>
    </message>
    <message>
        <source>Endpoint id</source>
        <translation>ID du point de terminaison</translation>
    </message>
    <message>
        <source>Created from</source>
        <translation>Créées du</translation>
    </message>
    <message>
        <source>Created from (ISO 8601)</source>
        <translation>Date de création minimale (ISO 8601)</translation>
    </message>
    <message>
        <source>to</source>
        <translation>au</translation>
    </message>
    <message>
        <source>Created until (ISO 8601)</source>
        <translation>Date de création maximale (ISO 8601)</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>Aperçu</translation>
    </message>
    <message>
        <source>Count what this filter selects</source>
        <translation>Compter ce que ce filtre sélectionne</translation>
    </message>
    <message>
        <source>%1 of %2 matching deliveries (capped: a job takes at most 10,000)</source>
        <translation>%1 sur %2 livraisons correspondantes (plafonné&#xa0;: une tâche en traite au plus 10&#xa0;000)</translation>
    </message>
    <message numerus="yes">
        <source>%n delivery(s) would be sent again</source>
        <translation>
            <numerusform>%n livraison serait renvoyée</numerusform>
            <numerusform>%n livraisons seraient renvoyées</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · %2 · %3</source>
        <translation>%1 · %2 · %3</translation>
    </message>
    <message numerus="yes">
        <source>… and %n more</source>
        <translation>
            <numerusform>… et %n autre</numerusform>
            <numerusform>… et %n autres</numerusform>
        </translation>
    </message>
    <message>
        <source>Rate</source>
        <translation>Débit</translation>
    </message>
    <message>
        <source>Deliveries a second</source>
        <translation>Livraisons par seconde</translation>
    </message>
    <message>
        <source>deliveries a second</source>
        <translation>livraisons par seconde</translation>
    </message>
    <message>
        <source>deliveries a second: 0.1 to 1000</source>
        <translation>livraisons par seconde&#xa0;: de 0,1 à 1000</translation>
    </message>
    <message>
        <source>Start</source>
        <translation>Démarrer</translation>
    </message>
    <message>
        <source>Start redelivering</source>
        <translation>Démarrer le renvoi</translation>
    </message>
    <message>
        <source>%1 of %2 sent · %3 queued again · %4 refused</source>
        <translation>envoyées&#xa0;: %1 sur %2 · remises en file&#xa0;: %3 · refusées&#xa0;: %4</translation>
    </message>
    <message>
        <source>Cancel job</source>
        <translation>Annuler la tâche</translation>
    </message>
    <message>
        <source>Cancel the redelivery job</source>
        <translation>Annuler la tâche de renvoi</translation>
    </message>
    <message>
        <source>Last refusal: %1</source>
        <translation>Dernier refus&#xa0;: %1</translation>
    </message>
    <message>
        <source>Jobs</source>
        <translation>Tâches</translation>
    </message>
    <message>
        <source>No redelivery jobs yet.</source>
        <translation>Aucune tâche de renvoi pour l&apos;instant.</translation>
    </message>
    <message>
        <source>%1 · %2 · %3/%4 sent · %5/s · %6</source>
        <translation>%1 · %2 · envoyées&#xa0;: %3/%4 · %5/s · %6</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
</context>
<context>
    <name>RegisterClientDialog</name>
    <message>
        <source>Register a client</source>
        <translation>Enregistrer un client</translation>
    </message>
    <message>
        <source>OAuth 2.0 dynamic client registration metadata (RFC 7591). A confidential client gets a secret, shown once.</source>
        <translation>Métadonnées d&apos;enregistrement dynamique de client OAuth 2.0 (RFC 7591). Un client confidentiel reçoit un secret, affiché une seule fois.</translation>
    </message>
    <message>
        <source>Name</source>
        <translation>Nom</translation>
    </message>
    <message>
        <source>e.g. Warehouse sync</source>
        <translation>p. ex. Synchro de l&apos;entrepôt</translation>
    </message>
    <message>
        <source>Client name</source>
        <translation>Nom du client</translation>
    </message>
    <message>
        <source>Client type and authentication</source>
        <translation>Type de client et authentification</translation>
    </message>
    <message>
        <source>Token endpoint authentication method</source>
        <translation>Méthode d&apos;authentification au point de terminaison de jeton</translation>
    </message>
    <message>
        <source>Grant types</source>
        <translation>Types d&apos;autorisation</translation>
    </message>
    <message>
        <source>Grant type %1</source>
        <translation>Type d&apos;autorisation %1</translation>
    </message>
    <message>
        <source>Redirect URIs</source>
        <translation>URI de redirection</translation>
    </message>
    <message>
        <source>One per line. https; http only for 127.0.0.1, localhost or [::1]; or an app&apos;s own scheme such as com.example.app:/callback.</source>
        <translation>Une par ligne. https&#xa0;; http uniquement pour 127.0.0.1, localhost ou [::1]&#xa0;; ou le schéma propre à l&apos;application, comme com.example.app:/callback.</translation>
    </message>
    <message>
        <source>Redirect URIs, one per line</source>
        <translation>URI de redirection, une par ligne</translation>
    </message>
    <message>
        <source>Scopes</source>
        <translation>Scopes</translation>
    </message>
    <message>
        <source>Separated by spaces, e.g. openid profile orders:read</source>
        <translation>Séparés par des espaces, p. ex. openid profile orders:read</translation>
    </message>
    <message>
        <source>Allowed scopes, separated by spaces</source>
        <translation>Scopes autorisés, séparés par des espaces</translation>
    </message>
    <message>
        <source>Access token format</source>
        <translation>Format du jeton d&apos;accès</translation>
    </message>
    <message>
        <source>Access token lifetime</source>
        <translation>Durée de vie du jeton d&apos;accès</translation>
    </message>
    <message>
        <source>Access token lifetime in seconds</source>
        <translation>Durée de vie du jeton d&apos;accès en secondes</translation>
    </message>
    <message>
        <source>seconds (%1)</source>
        <translation>secondes (%1)</translation>
    </message>
    <message>
        <source>seconds</source>
        <translation>secondes</translation>
    </message>
    <message>
        <source>Logo URL (optional)</source>
        <translation>URL du logo (facultatif)</translation>
    </message>
    <message>
        <source>Logo URL</source>
        <translation>URL du logo</translation>
    </message>
    <message>
        <source>Contacts (optional)</source>
        <translation>Contacts (facultatif)</translation>
    </message>
    <message>
        <source>E-mail addresses, separated by commas</source>
        <translation>Adresses e-mail, séparées par des virgules</translation>
    </message>
    <message>
        <source>Contact e-mail addresses</source>
        <translation>Adresses e-mail de contact</translation>
    </message>
    <message>
        <source>The server refused: %1</source>
        <translation>Le serveur a refusé&#xa0;: %1</translation>
    </message>
    <message>
        <source>Fix the fields marked in red.</source>
        <translation>Corrigez les champs signalés en rouge.</translation>
    </message>
    <message>
        <source>Register</source>
        <translation>Enregistrer</translation>
    </message>
    <message>
        <source>Register the client</source>
        <translation>Enregistrer le client</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>RequestsTab</name>
    <message>
        <source>The cluster API&apos;s decisions as they happen, newest first; denied requests in red.</source>
        <translation>Décisions de l&apos;API du cluster en direct, récentes d&apos;abord&#xa0;; refus en rouge.</translation>
    </message>
    <message>
        <source>Denied only</source>
        <translation>Refusées seulement</translation>
    </message>
    <message>
        <source>Show denied requests only</source>
        <translation>Afficher uniquement les requêtes refusées</translation>
    </message>
    <message>
        <source>Hide admin API reads</source>
        <translation>Masquer les lectures de l&apos;API d&apos;admin</translation>
    </message>
    <message>
        <source>Hide the reads the admin API makes as gatehouse-admin, such as this console&apos;s own lists</source>
        <translation>Masquer les lectures que l&apos;API d&apos;administration effectue en tant que gatehouse-admin, comme les listes de cette console</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Recharger</translation>
    </message>
    <message>
        <source>Reload the recent requests</source>
        <translation>Recharger les requêtes récentes</translation>
    </message>
    <message>
        <source>Cluster API requests</source>
        <translation>Requêtes à l&apos;API du cluster</translation>
    </message>
    <message>
        <source>Denied: %1 %2 by %3, %4 at %5: %6</source>
        <translation>Refusée&#xa0;: %1 %2 par %3, %4 à l&apos;étape %5&#xa0;: %6</translation>
    </message>
    <message>
        <source>%1 %2 by %3, %4</source>
        <translation>%1 %2 par %3, %4</translation>
    </message>
    <message>
        <source>denied at %1</source>
        <translation>refusée à l&apos;étape %1</translation>
    </message>
    <message>
        <source>Why denied</source>
        <translation>Pourquoi refusé</translation>
    </message>
    <message>
        <source>Why denied · 1 near miss</source>
        <translation>Pourquoi refusé · 1 quasi-correspondance</translation>
    </message>
    <message>
        <source>Why denied · %1 near misses</source>
        <translation>Pourquoi refusé · %1 quasi-correspondances</translation>
    </message>
    <message>
        <source>Hide why the request was denied</source>
        <translation>Masquer pourquoi la requête a été refusée</translation>
    </message>
    <message>
        <source>Show why the request was denied</source>
        <translation>Afficher pourquoi la requête a été refusée</translation>
    </message>
    <message>
        <source>no user: not authenticated</source>
        <translation>aucun utilisateur&#xa0;: non authentifié</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1 (%2)</translation>
    </message>
    <message>
        <source>No request matches the filters.</source>
        <translation>Aucune requête ne correspond aux filtres.</translation>
    </message>
    <message>
        <source>No cluster API requests yet. Apply a label change on the Nodes page, or point kubectl at the cluster listener.</source>
        <translation>Aucune requête à l&apos;API du cluster pour l&apos;instant. Appliquez une modification de labels sur la page Nœuds, ou pointez kubectl sur l&apos;écouteur du cluster.</translation>
    </message>
</context>
<context>
    <name>RolesTab</name>
    <message>
        <source>Cluster roles, then roles by namespace; one line per rule.</source>
        <translation>Rôles de cluster, puis rôles par namespace&#xa0;; une ligne par règle.</translation>
    </message>
    <message>
        <source>Roles</source>
        <translation>Rôles</translation>
    </message>
    <message>
        <source>%1 %2, %3</source>
        <translation>%1 %2, %3</translation>
    </message>
    <message>
        <source>built-in</source>
        <translation>intégré</translation>
    </message>
    <message>
        <source>No rules: grants nothing.</source>
        <translation>Aucune règle&#xa0;: n&apos;accorde rien.</translation>
    </message>
    <message>
        <source>No roles.</source>
        <translation>Aucun rôle.</translation>
    </message>
</context>
<context>
    <name>SecretRevealDialog</name>
    <message>
        <source>New webhook secret for %1</source>
        <translation>Nouveau secret de webhook pour %1</translation>
    </message>
    <message>
        <source>Webhook secret for %1</source>
        <translation>Secret de webhook pour %1</translation>
    </message>
    <message>
        <source>The customer&apos;s receiver verifies the webhook-signature header with this secret.</source>
        <translation>Le récepteur du client vérifie l&apos;en-tête webhook-signature avec ce secret.</translation>
    </message>
    <message>
        <source>Webhook secret</source>
        <translation>Secret de webhook</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Copié</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Copy the secret to the clipboard</source>
        <translation>Copier le secret dans le presse-papiers</translation>
    </message>
    <message>
        <source>You won&apos;t see this secret again. Gatehouse shows it only now; copy it and hand it to the customer over a safe channel.</source>
        <translation>Ce secret ne sera plus affiché. Gatehouse ne le montre que maintenant&#xa0;; copiez-le et transmettez-le au client par un canal sûr.</translation>
    </message>
    <message>
        <source>The previous secret keeps working until %1; until then every webhook carries a signature for each.</source>
        <translation>L&apos;ancien secret reste valable jusqu&apos;à %1&#xa0;; d&apos;ici là, chaque webhook porte une signature pour chacun des deux.</translation>
    </message>
    <message>
        <source>Done</source>
        <translation>Terminé</translation>
    </message>
    <message>
        <source>Close; the secret is not shown again</source>
        <translation>Fermer&#xa0;; le secret ne sera plus affiché</translation>
    </message>
</context>
<context>
    <name>SettingsPage</name>
    <message>
        <source>Restart required: some changes are kept for the next start of the backend (marked “restart required”).</source>
        <translation>Redémarrage nécessaire : certains changements sont gardés pour le prochain démarrage du backend (marqués « redémarrage nécessaire »).</translation>
    </message>
    <message>
        <source>Filter settings (Ctrl+F)…</source>
        <translation>Filtrer les paramètres (Ctrl+F)…</translation>
    </message>
    <message>
        <source>Filter settings</source>
        <translation>Filtrer les paramètres</translation>
    </message>
    <message>
        <source>Live changes apply at once; the others at the next start.</source>
        <translation>Les changements en direct s’appliquent tout de suite, les autres au prochain démarrage.</translation>
    </message>
    <message>
        <source>%1 shown</source>
        <translation>%1 affichés</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Recharger</translation>
    </message>
    <message>
        <source>Reload the settings</source>
        <translation>Recharger les paramètres</translation>
    </message>
    <message>
        <source>Settings</source>
        <translation>Paramètres</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1 : %2</translation>
    </message>
    <message>
        <source>applies live</source>
        <translation>en direct</translation>
    </message>
    <message>
        <source>restart required</source>
        <translation>redémarrage nécessaire</translation>
    </message>
    <message>
        <source>from %1</source>
        <translation>source : %1</translation>
    </message>
    <message>
        <source>on</source>
        <translation>activé</translation>
    </message>
    <message>
        <source>off</source>
        <translation>désactivé</translation>
    </message>
    <message>
        <source>%1 on or off</source>
        <translation>%1 activé ou désactivé</translation>
    </message>
    <message>
        <source>default: %1</source>
        <translation>par défaut : %1</translation>
    </message>
    <message>
        <source>empty</source>
        <translation>vide</translation>
    </message>
    <message>
        <source>Value of %1</source>
        <translation>Valeur de %1</translation>
    </message>
    <message>
        <source>Apply now</source>
        <translation>Appliquer</translation>
    </message>
    <message>
        <source>Keep for next start</source>
        <translation>Garder pour le redémarrage</translation>
    </message>
    <message>
        <source>Apply %1</source>
        <translation>Appliquer %1</translation>
    </message>
    <message>
        <source>Discard pending</source>
        <translation>Abandonner</translation>
    </message>
    <message>
        <source>Discard the value of %1 kept for the next start</source>
        <translation>Abandonner la valeur de %1 gardée pour le prochain démarrage</translation>
    </message>
    <message>
        <source>running with %1</source>
        <translation>en service : %1</translation>
    </message>
    <message>
        <source>(empty)</source>
        <translation>(vide)</translation>
    </message>
    <message>
        <source>The backend runs from this directory; start it with another --data-dir to change it.</source>
        <translation>Le backend fonctionne depuis ce répertoire ; démarrez-le avec un autre --data-dir pour le changer.</translation>
    </message>
    <message>
        <source>Given by %1, which wins at every start: change it there.</source>
        <translation>Fixé par %1, qui l’emporte à chaque démarrage : changez-le là.</translation>
    </message>
</context>
<context>
    <name>StatTile</name>
    <message>
        <source>%1: %2, %3</source>
        <translation>%1&#xa0;: %2, %3</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1&#xa0;: %2</translation>
    </message>
</context>
<context>
    <name>TestOrderDialog</name>
    <message>
        <source>Place a test order</source>
        <translation>Passer une commande de test</translation>
    </message>
    <message>
        <source>Status changes go to the built-in demo receiver, never to a customer.</source>
        <translation>Les changements de statut sont envoyés au récepteur de démo intégré, jamais à un client.</translation>
    </message>
    <message>
        <source>Customer</source>
        <translation>Client</translation>
    </message>
    <message>
        <source>Reference</source>
        <translation>Référence</translation>
    </message>
    <message>
        <source>Optional, e.g. TRAINING-7</source>
        <translation>Facultatif, p. ex. FORMATION-7</translation>
    </message>
    <message>
        <source>Customer reference</source>
        <translation>Référence client</translation>
    </message>
    <message>
        <source>Beers</source>
        <translation>Bières</translation>
    </message>
    <message>
        <source>Lines %1 · Qty %2</source>
        <translation>Lignes %1 · Qté %2</translation>
    </message>
    <message>
        <source>%1 · %2 · discontinued</source>
        <translation>%1 · %2 · plus commercialisée</translation>
    </message>
    <message>
        <source>%1 · %2 · %3 in stock</source>
        <translation>%1 · %2 · %3 en stock</translation>
    </message>
    <message>
        <source>Quantity of %1</source>
        <translation>Quantité de %1</translation>
    </message>
    <message>
        <source>The beer catalog is empty.</source>
        <translation>Le catalogue de bières est vide.</translation>
    </message>
    <message>
        <source>Place order</source>
        <translation>Passer la commande</translation>
    </message>
    <message>
        <source>Place the test order</source>
        <translation>Passer la commande de test</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>TokenPreviewDialog</name>
    <message>
        <source>Preview a token for %1</source>
        <translation>Aperçu d&apos;un jeton pour %1</translation>
    </message>
    <message>
        <source>Grant type</source>
        <translation>Type d&apos;autorisation</translation>
    </message>
    <message>
        <source>Scope</source>
        <translation>Scope</translation>
    </message>
    <message>
        <source>the client&apos;s scopes</source>
        <translation>les scopes du client</translation>
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
        <translation>Utilisateur</translation>
    </message>
    <message>
        <source>username</source>
        <translation>nom d&apos;utilisateur</translation>
    </message>
    <message>
        <source>Username</source>
        <translation>Nom d&apos;utilisateur</translation>
    </message>
    <message>
        <source>Preview</source>
        <translation>Aperçu</translation>
    </message>
    <message>
        <source>Preview the token</source>
        <translation>Aperçu du jeton</translation>
    </message>
    <message>
        <source>%1 access token, also issued: %2</source>
        <translation>Jeton d&apos;accès %1, également émis&#xa0;: %2</translation>
    </message>
    <message>
        <source>%1 access token</source>
        <translation>Jeton d&apos;accès %1</translation>
    </message>
    <message>
        <source>A dry run of the real issuing code: nothing is issued or stored, and iat, exp and jti differ in a real token.</source>
        <translation>Une simulation du vrai code d&apos;émission&#xa0;: rien n&apos;est émis ni enregistré, et iat, exp et jti diffèrent dans un vrai jeton.</translation>
    </message>
    <message>
        <source>Close</source>
        <translation>Fermer</translation>
    </message>
</context>
<context>
    <name>TokensPage</name>
    <message>
        <source>JWT decoder</source>
        <translation>Décodeur JWT</translation>
    </message>
    <message>
        <source>Active tokens (%1)</source>
        <translation>Jetons actifs (%1)</translation>
    </message>
    <message>
        <source>Mint a demo token</source>
        <translation>Émettre un jeton de démo</translation>
    </message>
    <message>
        <source>No client_credentials client</source>
        <translation>Aucun client client_credentials</translation>
    </message>
    <message>
        <source>Client to mint a token for</source>
        <translation>Client pour lequel émettre un jeton</translation>
    </message>
    <message>
        <source>Scope (optional; default: all the client may have)</source>
        <translation>Scope (facultatif&#xa0;; par défaut, tout ce que le client peut avoir)</translation>
    </message>
    <message>
        <source>Scope of the demo token</source>
        <translation>Scope du jeton de démo</translation>
    </message>
    <message>
        <source>Mint</source>
        <translation>Émettre</translation>
    </message>
    <message>
        <source>Mint a client_credentials token and decode it</source>
        <translation>Émettre un jeton client_credentials et le décoder</translation>
    </message>
    <message>
        <source>A client_credentials token, issued as if the client had asked the token endpoint itself. Only confidential clients with that grant are listed.</source>
        <translation>Un jeton client_credentials, émis comme si le client l&apos;avait demandé lui-même au point de terminaison de jeton. Seuls les clients confidentiels disposant de ce type d&apos;autorisation sont listés.</translation>
    </message>
    <message>
        <source>The minted access token</source>
        <translation>Le jeton d&apos;accès émis</translation>
    </message>
    <message>
        <source>Copied</source>
        <translation>Copié</translation>
    </message>
    <message>
        <source>Copy</source>
        <translation>Copier</translation>
    </message>
    <message>
        <source>Copy the minted token to the clipboard</source>
        <translation>Copier le jeton émis dans le presse-papiers</translation>
    </message>
    <message>
        <source>%1 — decoded below.</source>
        <translation>%1 — décodé ci-dessous.</translation>
    </message>
    <message>
        <source>Tokens that are neither expired nor revoked, newest first. Revoking a refresh token revokes its whole family.</source>
        <translation>Jetons ni expirés ni révoqués, les plus récents en premier. Révoquer un jeton d&apos;actualisation révoque toute sa famille.</translation>
    </message>
    <message>
        <source>Reload</source>
        <translation>Recharger</translation>
    </message>
    <message>
        <source>Reload the active tokens</source>
        <translation>Recharger les jetons actifs</translation>
    </message>
    <message>
        <source>Active tokens</source>
        <translation>Jetons actifs</translation>
    </message>
    <message>
        <source>%1 for %2</source>
        <translation>Jeton (%1) pour %2</translation>
    </message>
    <message>
        <source>%1 · subject %2</source>
        <translation>%1 · sujet %2</translation>
    </message>
    <message>
        <source>%1 · %2 · scope %3 · issued %4 · expires %5</source>
        <translation>%1 · %2 · scope %3 · émis&#xa0;: %4 · expiration&#xa0;: %5</translation>
    </message>
    <message>
        <source>none</source>
        <translation>aucun</translation>
    </message>
    <message>
        <source>Revoke…</source>
        <translation>Révoquer…</translation>
    </message>
    <message>
        <source>Revoke this %1</source>
        <translation>Révoquer ce jeton (%1)</translation>
    </message>
    <message>
        <source>No active tokens. Mint a demo token on the decoder tab to see one here.</source>
        <translation>Aucun jeton actif. Émettez un jeton de démo dans l&apos;onglet du décodeur pour en voir un ici.</translation>
    </message>
    <message>
        <source>Revoke this token?</source>
        <translation>Révoquer ce jeton&#xa0;?</translation>
    </message>
    <message>
        <source>The refresh token and every token of its family stop working at once.</source>
        <translation>Le jeton d&apos;actualisation et tous les jetons de sa famille cessent aussitôt de fonctionner.</translation>
    </message>
    <message>
        <source>The token stops working at once: introspection answers inactive. A JWT stays verifiable offline until it expires.</source>
        <translation>Le jeton cesse aussitôt de fonctionner&#xa0;: l&apos;introspection le déclare inactif. Un JWT reste vérifiable hors ligne jusqu&apos;à son expiration.</translation>
    </message>
    <message>
        <source>Revoke</source>
        <translation>Révoquer</translation>
    </message>
</context>
<context>
    <name>TrustCertificateDialog</name>
    <message>
        <source>The server&apos;s certificate changed</source>
        <translation>Le certificat du serveur a changé</translation>
    </message>
    <message>
        <source>Trust this server&apos;s certificate?</source>
        <translation>Approuver le certificat de ce serveur ?</translation>
    </message>
    <message>
        <source>%1 presents a certificate that no authority on this computer vouches for. Compare its fingerprint with the one the backend logged at start (“admin API over HTTPS; certificate SHA-256 fingerprint …”) or that its administrator gave you.</source>
        <translation>%1 présente un certificat qu’aucune autorité de cet ordinateur ne garantit. Comparez son empreinte avec celle que le backend a journalisée au démarrage (« admin API over HTTPS; certificate SHA-256 fingerprint … ») ou que son administrateur vous a donnée.</translation>
    </message>
    <message>
        <source>SHA-256 fingerprint</source>
        <translation>Empreinte SHA-256</translation>
    </message>
    <message>
        <source>SHA-256 fingerprint of the server&apos;s certificate</source>
        <translation>Empreinte SHA-256 du certificat du serveur</translation>
    </message>
    <message>
        <source>This is not the certificate you trusted for this server before. Someone may be intercepting the connection — or the server has a new certificate. Trust it only if its administrator confirms the new fingerprint.</source>
        <translation>Ce n’est pas le certificat que vous aviez approuvé pour ce serveur. Quelqu’un intercepte peut-être la connexion — ou le serveur a un nouveau certificat. Approuvez-le seulement si son administrateur confirme la nouvelle empreinte.</translation>
    </message>
    <message>
        <source>Trust the new certificate</source>
        <translation>Approuver le nouveau certificat</translation>
    </message>
    <message>
        <source>Trust and connect</source>
        <translation>Approuver et se connecter</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>Annuler</translation>
    </message>
</context>
<context>
    <name>VerdictBar</name>
    <message>
        <source>Answered %1</source>
        <translation>Réponse&#xa0;: %1</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Appliquer</translation>
    </message>
    <message>
        <source>Send the label change for real (Ctrl+Return)</source>
        <translation>Envoyer réellement la modification des labels (Ctrl+Entrée)</translation>
    </message>
</context>
<context>
    <name>VerdictCard</name>
    <message>
        <source>Verdict (dry run)</source>
        <translation>Verdict (simulation)</translation>
    </message>
    <message>
        <source>The request would get %1</source>
        <translation>La requête obtiendrait %1</translation>
    </message>
    <message>
        <source>the change would be saved</source>
        <translation>la modification serait enregistrée</translation>
    </message>
    <message>
        <source>the change would be refused</source>
        <translation>la modification serait refusée</translation>
    </message>
    <message>
        <source>The verdict shows here once a node is picked.</source>
        <translation>Le verdict s&apos;affiche ici dès qu&apos;un nœud est choisi.</translation>
    </message>
    <message>
        <source>Applying…</source>
        <translation>Application…</translation>
    </message>
    <message>
        <source>Apply</source>
        <translation>Appliquer</translation>
    </message>
    <message>
        <source>Send the label change for real (Ctrl+Return)</source>
        <translation>Envoyer réellement la modification des labels (Ctrl+Entrée)</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>Annuler les modifications</translation>
    </message>
    <message>
        <source>Drop every pending label change</source>
        <translation>Abandonner toutes les modifications de labels en attente</translation>
    </message>
    <message>
        <source>Answered %1</source>
        <translation>Réponse&#xa0;: %1</translation>
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
        <translation>Ressource, p. ex. nodes ou pods</translation>
    </message>
    <message>
        <source>Namespace</source>
        <translation>Namespace</translation>
    </message>
    <message>
        <source>all (cluster-wide)</source>
        <translation>tous (tout le cluster)</translation>
    </message>
    <message>
        <source>Namespace (optional)</source>
        <translation>Namespace (facultatif)</translation>
    </message>
    <message>
        <source>API group</source>
        <translation>Groupe d&apos;API</translation>
    </message>
    <message>
        <source>core</source>
        <translation>core</translation>
    </message>
    <message>
        <source>API group (optional; empty for the core group)</source>
        <translation>Groupe d&apos;API (facultatif&#xa0;; vide pour le groupe core)</translation>
    </message>
    <message>
        <source>Check</source>
        <translation>Vérifier</translation>
    </message>
    <message>
        <source>Ask who can use this resource</source>
        <translation>Demander qui peut utiliser cette ressource</translation>
    </message>
    <message>
        <source>Every subject named by a binding, and what it may do with %1.</source>
        <translation>Chaque sujet nommé par une liaison, et ce qu&apos;il peut faire avec %1.</translation>
    </message>
    <message>
        <source>Subject</source>
        <translation>Sujet</translation>
    </message>
    <message>
        <source>Who can: subjects by verbs</source>
        <translation>Qui peut&#xa0;: sujets par verbe</translation>
    </message>
    <message>
        <source>%1 may: %2</source>
        <translation>%1 peut&#xa0;: %2</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>rien</translation>
    </message>
    <message>
        <source>%1: allowed</source>
        <translation>%1&#xa0;: autorisé</translation>
    </message>
    <message>
        <source>%1: not allowed</source>
        <translation>%1&#xa0;: non autorisé</translation>
    </message>
    <message>
        <source>No binding names a subject.</source>
        <translation>Aucune liaison ne nomme de sujet.</translation>
    </message>
</context>
</TS>
