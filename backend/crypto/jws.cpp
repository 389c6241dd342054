#include "crypto/jws.h"

#include "crypto/cryptologging.h"
#include "crypto/errorcodes.h"
#include "crypto/privatekey_p.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonParseError>

#include <cjose/header.h>
#include <cjose/jwk.h>
#include <cjose/jws.h>
#include <jansson.h>

#include <openssl/core_names.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <vector>

namespace Gatehouse::Crypto::Jws {

using namespace Detail;

namespace {

using CjoseJwkPtr = std::unique_ptr<cjose_jwk_t, FnDeleter<cjose_jwk_release>>;
using CjoseJwsPtr = std::unique_ptr<cjose_jws_t, FnDeleter<cjose_jws_release>>;
using CjoseHeaderPtr = std::unique_ptr<cjose_header_t, FnDeleter<cjose_header_release>>;

// Tokens are small; a bound keeps hostile input from costing memory and time.
constexpr qsizetype MaxCompactSize = 4 * 1024 * 1024;
// Refusing a token is answered like an invalid token (RFC 6750 section 3.1).
constexpr int RefusedStatus = 401;

const QLatin1String RS256("RS256");
const QLatin1String PS256("PS256");
const QLatin1String ES256("ES256");

QString cjoseMessage(const cjose_err &err)
{
    return err.message ? QString::fromLatin1(err.message) : QStringLiteral("unknown cjose error");
}

Error refused(const char *code, const QString &message)
{
    qCDebug(lcCrypto) << "JWS refused:" << code << message;
    return makeError(QString::fromLatin1(code), message, RefusedStatus);
}

bool algSuitsRsa(const QString &alg)
{
    return alg == RS256 || alg == PS256;
}

bool algSuitsKey(const PrivateKey &key, const QString &alg)
{
    return key.isRsa() ? algSuitsRsa(alg) : alg == ES256;
}

struct Compact
{
    QByteArray signingInput; // header.payload, as received
    QJsonObject header;
    QByteArray payload;
    QByteArray signature;
};

Result<Compact> parseCompact(const QByteArray &compact)
{
    if (compact.size() > MaxCompactSize)
        return refused(ErrorCode::JwsTooLarge, QStringLiteral("JWS too large"));
    const QList<QByteArray> parts = compact.split('.');
    if (parts.size() != 3)
        return refused(ErrorCode::JwsMalformed,
                       QStringLiteral("a compact JWS has exactly three parts"));
    if (parts[0].isEmpty())
        return refused(ErrorCode::JwsMalformed, QStringLiteral("empty JWS header"));

    auto header = fromBase64Url(parts[0]);
    auto payload = fromBase64Url(parts[1]);
    auto signature = fromBase64Url(parts[2]);
    if (!header || !payload || !signature)
        return refused(ErrorCode::JwsMalformed, QStringLiteral("JWS part is not base64url"));

    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(*header, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return refused(ErrorCode::JwsMalformed, QStringLiteral("JWS header is not a JSON object"));

    Compact result;
    result.signingInput = parts[0] + '.' + parts[1];
    result.header = doc.object();
    result.payload = std::move(*payload);
    result.signature = std::move(*signature);
    return result;
}

// The algorithm of a received header, or why it is refused.
Result<QString> acceptedAlg(const QJsonObject &header)
{
    const QJsonValue value = header.value(QLatin1String("alg"));
    if (!value.isString() || value.toString().isEmpty())
        return refused(ErrorCode::JwsAlgMissing, QStringLiteral("JWS header has no alg"));
    const QString alg = value.toString();
    // Fail closed: an unsigned token is never accepted (RFC 8725 section 3.1).
    if (alg.compare(QLatin1String("none"), Qt::CaseInsensitive) == 0)
        return refused(ErrorCode::JwsAlgNone, QStringLiteral("alg 'none' is refused"));
    // Fail closed: never HMAC with public key material (RFC 8725 section 2.1).
    if (alg.startsWith(QLatin1String("HS"), Qt::CaseInsensitive))
        return refused(ErrorCode::JwsAlgHmac, QStringLiteral("HMAC algs are refused"));
    if (alg != RS256 && alg != PS256 && alg != ES256)
        return refused(ErrorCode::JwsAlgUnsupported,
                       QStringLiteral("alg '%1' is not supported").arg(alg));
    return alg;
}

struct VerificationKey
{
    CjoseJwkPtr jwk;
    qsizetype signatureLength = 0;
};

Result<QByteArray> jwkBytes(const QJsonObject &jwk, const char *member)
{
    const QJsonValue value = jwk.value(QLatin1String(member));
    if (!value.isString())
        return refused(ErrorCode::JwkInvalid, QStringLiteral("JWK lacks '%1'").arg(member));
    auto bytes = fromBase64Url(value.toString().toLatin1());
    if (!bytes || bytes->isEmpty())
        return refused(ErrorCode::JwkInvalid,
                       QStringLiteral("JWK member '%1' is not base64url").arg(member));
    return bytes;
}

// Checks a public JWK against alg and imports only its public members into cjose.
Result<VerificationKey> verificationKey(const QJsonObject &jwk, const QString &alg)
{
    const QString kty = jwk.value(QLatin1String("kty")).toString();

    if (jwk.contains(QLatin1String("alg"))) {
        // RFC 7517 section 4.4: a key bound to an alg is used with that alg only.
        if (jwk.value(QLatin1String("alg")).toString() != alg)
            return refused(ErrorCode::JwsAlgKeyMismatch,
                           QStringLiteral("token alg %1 does not match the key's alg").arg(alg));
    }
    if (jwk.contains(QLatin1String("use")) &&
        jwk.value(QLatin1String("use")).toString() != QLatin1String("sig"))
        return refused(ErrorCode::JwkInvalid, QStringLiteral("key is not meant for signatures"));
    if (jwk.contains(QLatin1String("key_ops")) &&
        !jwk.value(QLatin1String("key_ops"))
             .toArray()
             .contains(QJsonValue(QLatin1String("verify"))))
        return refused(ErrorCode::JwkInvalid, QStringLiteral("key_ops does not allow verify"));

    QJsonObject sanitized;
    VerificationKey key;
    if (kty == QLatin1String("RSA")) {
        if (!algSuitsRsa(alg))
            return refused(ErrorCode::JwsAlgKeyMismatch,
                           QStringLiteral("alg %1 cannot be used with an RSA key").arg(alg));
        auto n = jwkBytes(jwk, "n");
        if (!n)
            return n.error();
        auto e = jwkBytes(jwk, "e");
        if (!e)
            return e.error();
        while (n->size() > 1 && n->at(0) == '\0')
            n->remove(0, 1);
        if (n->size() < 256 || n->size() > 512 || e->size() > 8)
            return refused(ErrorCode::JwkInvalid,
                           QStringLiteral("RSA key size not accepted (2048 to 4096 bits)"));
        quint64 exponent = 0;
        for (const char byte : std::as_const(*e))
            exponent = (exponent << 8) | quint8(byte);
        // e = 1 makes the padded digest itself a valid signature; an even e is no RSA key.
        if (exponent < 65537 || exponent % 2 == 0)
            return refused(ErrorCode::JwkInvalid,
                           QStringLiteral("RSA exponent not accepted (odd, at least 65537)"));
        key.signatureLength = n->size();
        sanitized = {{QLatin1String("kty"), kty},
                     {QLatin1String("n"), jwk.value(QLatin1String("n"))},
                     {QLatin1String("e"), jwk.value(QLatin1String("e"))}};
    } else if (kty == QLatin1String("EC")) {
        if (jwk.value(QLatin1String("crv")).toString() != QLatin1String("P-256"))
            return refused(ErrorCode::JwkInvalid,
                           QStringLiteral("only EC P-256 keys are accepted"));
        if (alg != ES256)
            return refused(ErrorCode::JwsAlgKeyMismatch,
                           QStringLiteral("alg %1 cannot be used with an EC P-256 key").arg(alg));
        auto x = jwkBytes(jwk, "x");
        if (!x)
            return x.error();
        auto y = jwkBytes(jwk, "y");
        if (!y)
            return y.error();
        if (x->size() != 32 || y->size() != 32)
            return refused(ErrorCode::JwkInvalid,
                           QStringLiteral("EC coordinates must be 32 bytes"));
        key.signatureLength = 64; // R || S (RFC 7518 section 3.4)
        sanitized = {{QLatin1String("kty"), kty},
                     {QLatin1String("crv"), QLatin1String("P-256")},
                     {QLatin1String("x"), jwk.value(QLatin1String("x"))},
                     {QLatin1String("y"), jwk.value(QLatin1String("y"))}};
    } else {
        // Fail closed: symmetric ("oct") and unknown key types are never used here.
        return refused(ErrorCode::JwkInvalid,
                       QStringLiteral("key type '%1' is not accepted").arg(kty));
    }

    const QByteArray json = QJsonDocument(sanitized).toJson(QJsonDocument::Compact);
    cjose_err err{};
    key.jwk.reset(cjose_jwk_import(json.constData(), size_t(json.size()), &err));
    ERR_clear_error();
    if (!key.jwk)
        return refused(ErrorCode::JwkInvalid,
                       QStringLiteral("JWK rejected by cjose: %1").arg(cjoseMessage(err)));
    const cjose_jwk_kty_t expected =
        kty == QLatin1String("RSA") ? CJOSE_JWK_KTY_RSA : CJOSE_JWK_KTY_EC;
    if (cjose_jwk_get_kty(key.jwk.get(), &err) != expected)
        return refused(ErrorCode::JwkInvalid, QStringLiteral("JWK type changed on import"));
    return key;
}

Result<VerifiedJws> verifyParsed(const QByteArray &compact, const Compact &parsed,
                                 const QJsonObject &publicJwk)
{
    auto alg = acceptedAlg(parsed.header);
    if (!alg)
        return alg.error();
    // RFC 7515 section 4.1.11: no extension is understood here, so "crit" is refused.
    if (parsed.header.contains(QLatin1String("crit")))
        return refused(ErrorCode::JwsCritUnsupported, QStringLiteral("'crit' is not supported"));
    const QJsonValue kid = parsed.header.value(QLatin1String("kid"));
    if (!kid.isUndefined() && !kid.isString())
        return refused(ErrorCode::JwsMalformed, QStringLiteral("kid must be a string"));

    auto key = verificationKey(publicJwk, *alg);
    if (!key)
        return key.error();
    if (parsed.signature.size() != key->signatureLength)
        return refused(ErrorCode::JwsBadSignature,
                       QStringLiteral("signature has the wrong length"));

    cjose_err err{};
    CjoseJwsPtr jws(cjose_jws_import(compact.constData(), size_t(compact.size()), &err));
    if (!jws) {
        ERR_clear_error();
        return refused(ErrorCode::JwsMalformed,
                       QStringLiteral("JWS rejected by cjose: %1").arg(cjoseMessage(err)));
    }

    // The alg checked above must be the one cjose acts on (e.g. duplicate "alg"
    // members parsed differently by two JSON parsers): fail closed otherwise.
    const char *cjoseAlg = cjose_header_get(cjose_jws_get_protected(jws.get()), "alg", &err);
    if (!cjoseAlg || QString::fromUtf8(cjoseAlg) != *alg)
        return refused(ErrorCode::JwsHeaderAmbiguous, QStringLiteral("ambiguous JWS header"));

    if (!cjose_jws_verify(jws.get(), key->jwk.get(), &err)) {
        ERR_clear_error();
        return refused(ErrorCode::JwsBadSignature, QStringLiteral("signature verification failed"));
    }

    uint8_t *plaintext = nullptr;
    size_t plaintextLen = 0;
    QByteArray payload;
    if (cjose_jws_get_plaintext(jws.get(), &plaintext, &plaintextLen, &err) && plaintext)
        payload = QByteArray(reinterpret_cast<const char *>(plaintext), qsizetype(plaintextLen));
    if (payload != parsed.payload)
        return refused(ErrorCode::JwsHeaderAmbiguous, QStringLiteral("ambiguous JWS payload"));

    VerifiedJws verified;
    verified.header = parsed.header;
    verified.payload = std::move(payload);
    verified.kid = kid.toString();
    verified.alg = *alg;
    return verified;
}

// A cjose JWK holding the private key, built from the OpenSSL key parameters.
Result<CjoseJwkPtr> signingJwk(const EVP_PKEY *pkey)
{
    cjose_err err{};
    CjoseJwkPtr jwk;
    if (EVP_PKEY_get_base_id(pkey) == EVP_PKEY_RSA) {
        const BnPtr n = bnParam(pkey, OSSL_PKEY_PARAM_RSA_N);
        const BnPtr e = bnParam(pkey, OSSL_PKEY_PARAM_RSA_E);
        const BnPtr d = bnParam(pkey, OSSL_PKEY_PARAM_RSA_D);
        const BnPtr p = bnParam(pkey, OSSL_PKEY_PARAM_RSA_FACTOR1);
        const BnPtr q = bnParam(pkey, OSSL_PKEY_PARAM_RSA_FACTOR2);
        const BnPtr dp = bnParam(pkey, OSSL_PKEY_PARAM_RSA_EXPONENT1);
        const BnPtr dq = bnParam(pkey, OSSL_PKEY_PARAM_RSA_EXPONENT2);
        const BnPtr qi = bnParam(pkey, OSSL_PKEY_PARAM_RSA_COEFFICIENT1);
        if (!n || !e || !d || !p || !q || !dp || !dq || !qi)
            return makeError(ErrorCode::KeyInvalid, QStringLiteral("incomplete RSA private key"));
        SecretBytes nb(bnBytes(n.get())), eb(bnBytes(e.get())), db(bnBytes(d.get())),
            pb(bnBytes(p.get())), qb(bnBytes(q.get())), dpb(bnBytes(dp.get())),
            dqb(bnBytes(dq.get())), qib(bnBytes(qi.get()));
        cjose_jwk_rsa_keyspec spec{};
        spec.n = nb.data();
        spec.nlen = nb.size();
        spec.e = eb.data();
        spec.elen = eb.size();
        spec.d = db.data();
        spec.dlen = db.size();
        spec.p = pb.data();
        spec.plen = pb.size();
        spec.q = qb.data();
        spec.qlen = qb.size();
        spec.dp = dpb.data();
        spec.dplen = dpb.size();
        spec.dq = dqb.data();
        spec.dqlen = dqb.size();
        spec.qi = qib.data();
        spec.qilen = qib.size();
        jwk.reset(cjose_jwk_create_RSA_spec(&spec, &err));
    } else {
        const BnPtr x = bnParam(pkey, OSSL_PKEY_PARAM_EC_PUB_X);
        const BnPtr y = bnParam(pkey, OSSL_PKEY_PARAM_EC_PUB_Y);
        const BnPtr d = bnParam(pkey, OSSL_PKEY_PARAM_PRIV_KEY);
        if (!x || !y || !d)
            return makeError(ErrorCode::KeyInvalid, QStringLiteral("incomplete EC private key"));
        SecretBytes xb(bnBytes(x.get(), 32)), yb(bnBytes(y.get(), 32)), db(bnBytes(d.get(), 32));
        cjose_jwk_ec_keyspec spec{};
        spec.crv = CJOSE_JWK_EC_P_256;
        spec.d = db.data();
        spec.dlen = db.size();
        spec.x = xb.data();
        spec.xlen = xb.size();
        spec.y = yb.data();
        spec.ylen = yb.size();
        jwk.reset(cjose_jwk_create_EC_spec(&spec, &err));
    }
    if (!jwk)
        return openSslError(ErrorCode::JwsSignFailed,
                            QStringLiteral("cjose cannot use the key: %1").arg(cjoseMessage(err)));
    return jwk;
}

} // namespace

Result<QByteArray> sign(const PrivateKey &key, const QString &alg,
                        const QJsonObject &protectedHeader, const QByteArray &payload)
{
    if (key.isNull())
        return makeError(ErrorCode::KeyNull, QStringLiteral("cannot sign with a null key"));
    if (alg != RS256 && alg != PS256 && alg != ES256)
        return makeError(ErrorCode::JwsAlgUnsupported,
                         QStringLiteral("alg '%1' is not supported for signing").arg(alg), 400);
    if (!algSuitsKey(key, alg))
        return makeError(ErrorCode::JwsAlgKeyMismatch,
                         QStringLiteral("alg %1 does not suit a %2 key")
                             .arg(alg, key.isRsa() ? QStringLiteral("RSA") : QStringLiteral("EC")),
                         400);
    if (protectedHeader.contains(QLatin1String("alg")) &&
        protectedHeader.value(QLatin1String("alg")).toString() != alg)
        return makeError(ErrorCode::JwsAlgKeyMismatch,
                         QStringLiteral("header alg differs from the requested alg"), 400);
    if (protectedHeader.contains(QLatin1String("crit")))
        return makeError(ErrorCode::JwsCritUnsupported, QStringLiteral("'crit' is not supported"),
                         400);

    ERR_clear_error();
    // A cjose key lent by the private key (built on first use), returned after signing.
    const PrivateKeyPrivate &owner = *PrivateKeyAccess::data(key);
    PrivateKeyPrivate::CjoseJwk lent(nullptr, [](cjose_jwk_t *j) { cjose_jwk_release(j); });
    {
        std::lock_guard lock(owner.jwkMutex);
        if (!owner.idleJwks.empty()) {
            lent = std::move(owner.idleJwks.back());
            owner.idleJwks.pop_back();
        }
    }
    if (!lent) {
        auto jwk = signingJwk(PrivateKeyAccess::pkey(key));
        if (!jwk)
            return jwk.error();
        lent.reset(jwk->release());
    }
    struct GiveBack
    {
        const PrivateKeyPrivate &owner;
        PrivateKeyPrivate::CjoseJwk &jwk;
        ~GiveBack()
        {
            std::lock_guard lock(owner.jwkMutex);
            if (owner.idleJwks.size() < 16)
                owner.idleJwks.push_back(std::move(jwk));
        }
    } giveBack{owner, lent};
    cjose_jwk_t *jwkHandle = lent.get();

    // cjose 0.6 can only set string, object or array header values
    // (cjose_header_set_raw parses without JSON_DECODE_ANY). cjose_header_t is a
    // jansson json_t (its public typedef is struct json_t), so the whole header is loaded as one
    // object.
    QJsonObject headerObject = protectedHeader;
    headerObject.insert(QLatin1String("alg"), alg);
    const QByteArray headerJson = QJsonDocument(headerObject).toJson(QJsonDocument::Compact);
    json_error_t jsonError;
    CjoseHeaderPtr header(json_loadb(headerJson.constData(), size_t(headerJson.size()),
                                     JSON_REJECT_DUPLICATES, &jsonError));
    if (!header || !json_is_object(header.get()))
        return makeError(
            ErrorCode::JwsSignFailed,
            QStringLiteral("cannot encode the header: %1").arg(QString::fromUtf8(jsonError.text)),
            400);

    cjose_err err{};
    CjoseJwsPtr jws(cjose_jws_sign(jwkHandle, header.get(),
                                   reinterpret_cast<const uint8_t *>(payload.constData()),
                                   size_t(payload.size()), &err));
    if (!jws)
        return openSslError(ErrorCode::JwsSignFailed,
                            QStringLiteral("signing failed: %1").arg(cjoseMessage(err)));
    const char *serialized = nullptr;
    if (!cjose_jws_export(jws.get(), &serialized, &err) || !serialized)
        return makeError(ErrorCode::JwsSignFailed,
                         QStringLiteral("export failed: %1").arg(cjoseMessage(err)));
    return QByteArray(serialized);
}

QJsonObject publicJwk(const PrivateKey &key, const QString &kid, const QString &alg,
                      const QString &use)
{
    if (key.isNull())
        return {};
    const QString effectiveAlg = alg.isEmpty() ? key.defaultJwsAlg() : alg;
    if (!algSuitsKey(key, effectiveAlg)) {
        qCWarning(lcCrypto) << "publicJwk: alg" << effectiveAlg << "does not suit the key";
        return {};
    }
    // Only the public members (RFC 7518 section 6): built from scratch, never filtered.
    QJsonObject jwk = publicJwkMembers(PrivateKeyAccess::pkey(key));
    if (jwk.isEmpty())
        return {};
    if (!kid.isEmpty())
        jwk.insert(QLatin1String("kid"), kid);
    jwk.insert(QLatin1String("alg"), effectiveAlg);
    if (!use.isEmpty())
        jwk.insert(QLatin1String("use"), use);
    return jwk;
}

Result<QJsonObject> publicJwkFromPem(const QByteArray &pem)
{
    if (pem.size() > 64 * 1024)
        return refused(ErrorCode::JwkInvalid, QStringLiteral("the PEM text is too large"));
    BioPtr bio(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    PkeyPtr pkey;
    if (pem.contains("BEGIN CERTIFICATE")) {
        X509Ptr cert(PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr));
        if (cert)
            pkey.reset(X509_get_pubkey(cert.get()));
    } else {
        pkey.reset(PEM_read_bio_PUBKEY(bio.get(), nullptr, nullptr, nullptr));
    }
    ERR_clear_error();
    if (!pkey)
        return refused(ErrorCode::JwkInvalid,
                       QStringLiteral("not a PEM public key or certificate (expected -----BEGIN "
                                      "PUBLIC KEY----- or -----BEGIN CERTIFICATE-----)"));
    const int id = EVP_PKEY_get_base_id(pkey.get());
    if (id == EVP_PKEY_RSA && EVP_PKEY_get_bits(pkey.get()) < 2048)
        return refused(ErrorCode::JwkInvalid,
                       QStringLiteral("RSA keys under 2048 bits are refused"));
    const QJsonObject jwk = publicJwkMembers(pkey.get());
    if (jwk.isEmpty() || (id != EVP_PKEY_RSA && id != EVP_PKEY_EC))
        return refused(ErrorCode::JwkInvalid,
                       QStringLiteral("unsupported key type (RSA or EC P-256 only)"));
    return jwk;
}

QJsonObject jwks(const QList<QJsonObject> &keys)
{
    QJsonArray array;
    for (const QJsonObject &key : keys)
        array.append(key);
    return QJsonObject{{QLatin1String("keys"), array}};
}

std::optional<QString> registeredKeyProblem(const QJsonObject &jwk)
{
    for (const char *member : {"d", "p", "q", "dp", "dq", "qi", "oth", "k"})
        if (jwk.contains(QLatin1String(member)))
            return QStringLiteral("a public key only: '%1' is a private member")
                .arg(QLatin1String(member));
    const QString kty = jwk.value(QLatin1String("kty")).toString();
    if (kty != QLatin1String("RSA") && kty != QLatin1String("EC"))
        return QStringLiteral("kty must be RSA or EC");
    const QString alg = jwk.contains(QLatin1String("alg"))
                            ? jwk.value(QLatin1String("alg")).toString()
                            : QString(kty == QLatin1String("RSA") ? RS256 : ES256);
    auto checked = acceptedAlg(QJsonObject{{QLatin1String("alg"), alg}});
    if (!checked)
        return checked.error().message;
    auto key = verificationKey(jwk, alg);
    if (!key)
        return key.error().message;
    return std::nullopt;
}

Result<VerifiedJws> verify(const QByteArray &compact, const QJsonObject &publicJwk)
{
    auto parsed = parseCompact(compact);
    if (!parsed)
        return parsed.error();
    return verifyParsed(compact, *parsed, publicJwk);
}

Result<VerifiedJws> verifyWithJwks(const QByteArray &compact, const QJsonObject &jwks)
{
    const QJsonValue keysValue = jwks.value(QLatin1String("keys"));
    if (!keysValue.isArray())
        return refused(ErrorCode::JwksInvalid, QStringLiteral("JWKS has no 'keys' array"));
    const QJsonArray keys = keysValue.toArray();

    auto parsed = parseCompact(compact);
    if (!parsed)
        return parsed.error();

    const QJsonValue kid = parsed->header.value(QLatin1String("kid"));
    QJsonObject selected;
    if (kid.isUndefined()) {
        // Without a kid only an unambiguous set is usable.
        if (keys.size() != 1 || !keys.first().isObject())
            return refused(
                ErrorCode::JwksKidRequired,
                QStringLiteral("token has no kid and the JWKS has %1 keys").arg(keys.size()));
        selected = keys.first().toObject();
    } else {
        if (!kid.isString())
            return refused(ErrorCode::JwsMalformed, QStringLiteral("kid must be a string"));
        int matches = 0;
        for (const QJsonValue candidate : keys) {
            if (candidate.isObject() && candidate.toObject().value(QLatin1String("kid")) == kid) {
                selected = candidate.toObject();
                ++matches;
            }
        }
        if (matches == 0)
            return refused(ErrorCode::JwksUnknownKid,
                           QStringLiteral("no key with kid '%1'").arg(kid.toString()));
        if (matches > 1)
            return refused(ErrorCode::JwksAmbiguousKid,
                           QStringLiteral("several keys with kid '%1'").arg(kid.toString()));
    }
    return verifyParsed(compact, *parsed, selected);
}

Result<QJsonObject> decodeUnverified(const QByteArray &compact)
{
    auto parsed = parseCompact(compact);
    if (!parsed)
        return makeError(parsed.error().code, parsed.error().message, 400);

    QJsonValue payload;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(parsed->payload, &parseError);
    if (parseError.error == QJsonParseError::NoError && doc.isObject())
        payload = doc.object();
    else if (parseError.error == QJsonParseError::NoError && doc.isArray())
        payload = doc.array();
    else
        payload = QString::fromUtf8(parsed->payload);
    return QJsonObject{{QLatin1String("header"), parsed->header},
                       {QLatin1String("payload"), payload}};
}

} // namespace Gatehouse::Crypto::Jws
