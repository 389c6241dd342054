#pragma once

// Machine codes of the Errors returned by Gatehouse::Crypto (Error::code).

namespace Gatehouse::Crypto::ErrorCode {

// Generic
inline constexpr char Malformed[] = "crypto_malformed_input";
inline constexpr char Internal[] = "crypto_internal_error";
inline constexpr char Io[] = "crypto_io_error";

// Keys
inline constexpr char KeyGenerationFailed[] = "key_generation_failed";
inline constexpr char KeyInvalid[] = "key_invalid";
inline constexpr char KeyUnsupported[] = "key_unsupported";
inline constexpr char KeyNull[] = "key_null";

// JWS (RFC 7515) and JWK (RFC 7517)
inline constexpr char JwsMalformed[] = "jws_malformed";
inline constexpr char JwsTooLarge[] = "jws_too_large";
inline constexpr char JwsAlgMissing[] = "jws_alg_missing";
inline constexpr char JwsAlgNone[] = "jws_alg_none";
inline constexpr char JwsAlgHmac[] = "jws_alg_hmac_refused";
inline constexpr char JwsAlgUnsupported[] = "jws_alg_unsupported";
inline constexpr char JwsAlgKeyMismatch[] = "jws_alg_key_mismatch";
inline constexpr char JwsCritUnsupported[] = "jws_crit_unsupported";
inline constexpr char JwsHeaderAmbiguous[] = "jws_header_ambiguous";
inline constexpr char JwsBadSignature[] = "jws_bad_signature";
inline constexpr char JwsSignFailed[] = "jws_sign_failed";
inline constexpr char JwkInvalid[] = "jwk_invalid";
inline constexpr char JwksInvalid[] = "jwks_invalid";
inline constexpr char JwksKidRequired[] = "jwks_kid_required";
inline constexpr char JwksUnknownKid[] = "jwks_unknown_kid";
inline constexpr char JwksAmbiguousKid[] = "jwks_ambiguous_kid";

// X.509
inline constexpr char CertInvalidRequest[] = "cert_invalid_request";
inline constexpr char CertIssueFailed[] = "cert_issue_failed";
inline constexpr char CertInvalid[] = "cert_invalid";
inline constexpr char CertVerifyFailed[] = "cert_verify_failed";
inline constexpr char CaInvalid[] = "ca_invalid";
inline constexpr char CaIncomplete[] = "ca_incomplete";

// Passwords
inline constexpr char PasswordHashFailed[] = "password_hash_failed";
inline constexpr char PasswordInvalidParameters[] = "password_invalid_parameters";

} // namespace Gatehouse::Crypto::ErrorCode
