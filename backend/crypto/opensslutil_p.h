#pragma once

// Internal to backend/crypto: the only place (with the .cpp files beside it) that
// sees OpenSSL types. Never include this from a public header.

#include "core/result.h"

#include <QByteArray>
#include <QString>

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>
#include <vector>

namespace Gatehouse::Crypto::Detail {

template <auto Fn> struct FnDeleter
{
    template <typename T> void operator()(T *p) const
    {
        if (p)
            Fn(p);
    }
};

using BioPtr = std::unique_ptr<BIO, FnDeleter<BIO_free_all>>;
using BnPtr = std::unique_ptr<BIGNUM, FnDeleter<BN_clear_free>>;
using PkeyPtr = std::unique_ptr<EVP_PKEY, FnDeleter<EVP_PKEY_free>>;
using PkeyCtxPtr = std::unique_ptr<EVP_PKEY_CTX, FnDeleter<EVP_PKEY_CTX_free>>;
using X509Ptr = std::unique_ptr<X509, FnDeleter<X509_free>>;
using X509ExtPtr = std::unique_ptr<X509_EXTENSION, FnDeleter<X509_EXTENSION_free>>;
using X509StorePtr = std::unique_ptr<X509_STORE, FnDeleter<X509_STORE_free>>;
using X509StoreCtxPtr = std::unique_ptr<X509_STORE_CTX, FnDeleter<X509_STORE_CTX_free>>;
using GeneralNamesPtr = std::unique_ptr<GENERAL_NAMES, FnDeleter<GENERAL_NAMES_free>>;
using GeneralNamePtr = std::unique_ptr<GENERAL_NAME, FnDeleter<GENERAL_NAME_free>>;
using Asn1IntegerPtr = std::unique_ptr<ASN1_INTEGER, FnDeleter<ASN1_INTEGER_free>>;

// Bytes that hold secret material; wiped when they go out of scope.
class SecretBytes
{
public:
    SecretBytes() = default;
    explicit SecretBytes(std::vector<unsigned char> data) : m_data(std::move(data)) {}
    SecretBytes(const SecretBytes &) = delete;
    SecretBytes &operator=(const SecretBytes &) = delete;
    SecretBytes(SecretBytes &&other) noexcept : m_data(std::move(other.m_data)) {}
    SecretBytes &operator=(SecretBytes &&other) noexcept
    {
        wipe();
        m_data = std::move(other.m_data);
        return *this;
    }
    ~SecretBytes() { wipe(); }

    unsigned char *data() { return m_data.empty() ? nullptr : m_data.data(); }
    size_t size() const { return m_data.size(); }
    bool empty() const { return m_data.empty(); }

private:
    void wipe()
    {
        if (!m_data.empty())
            OPENSSL_cleanse(m_data.data(), m_data.size());
        m_data.clear();
    }

    std::vector<unsigned char> m_data;
};

// Wipes a QByteArray that held secret material (the caller must own the only copy).
void wipe(QByteArray &secret);

// Drains the OpenSSL error queue into a short, secret-free description.
QString takeOpenSslErrors();

// Builds an Error and appends whatever OpenSSL queued, clearing the queue.
Error openSslError(const QString &code, const QString &message, int httpStatus = 500);

QByteArray readBio(BIO *bio);

// Big-endian magnitude of a BIGNUM, left-padded with zeros to padTo bytes when given.
std::vector<unsigned char> bnBytes(const BIGNUM *bn, int padTo = 0);

// A named BIGNUM parameter of a key (OSSL_PKEY_PARAM_*), or null.
BnPtr bnParam(const EVP_PKEY *pkey, const char *name);

QByteArray base64Url(const QByteArray &data);
QByteArray base64Url(const std::vector<unsigned char> &data);

// Strict base64url (RFC 7515 section 2): alphabet [A-Za-z0-9_-], no padding.
bool isBase64Url(const QByteArray &text);
Result<QByteArray> fromBase64Url(const QByteArray &text);

} // namespace Gatehouse::Crypto::Detail
