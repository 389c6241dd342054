#pragma once

#include <QString>

#include <utility>
#include <variant>

namespace Gatehouse {

// An error as a value (no exceptions across modules): a machine code, a human
// message and the HTTP status an API would answer with.
struct Error
{
    QString code;
    QString message;
    int httpStatus = 500;
};

inline Error makeError(QString code, QString message, int httpStatus = 500)
{
    return Error{std::move(code), std::move(message), httpStatus};
}

// Result<T>: an expected value or an Error. Result<void> carries only success or Error.
template <typename T> class [[nodiscard]] Result
{
public:
    Result(T value) : m_data(std::move(value)) {}
    Result(Error error) : m_data(std::move(error)) {}

    bool ok() const { return m_data.index() == 0; }
    explicit operator bool() const { return ok(); }

    T &value() & { return std::get<0>(m_data); }
    const T &value() const & { return std::get<0>(m_data); }
    T &&value() && { return std::get<0>(std::move(m_data)); }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    T &operator*() & { return value(); }
    const T &operator*() const & { return value(); }

    const Error &error() const { return std::get<1>(m_data); }

private:
    std::variant<T, Error> m_data;
};

template <> class [[nodiscard]] Result<void>
{
public:
    Result() = default;
    Result(Error error) : m_error(std::move(error)), m_ok(false) {}

    bool ok() const { return m_ok; }
    explicit operator bool() const { return m_ok; }
    const Error &error() const { return m_error; }

private:
    Error m_error;
    bool m_ok = true;
};

// Modules spell these Core::Result, Core::Error, Core::makeError.
namespace Core {
using Gatehouse::Error;
using Gatehouse::makeError;
using Gatehouse::Result;

// The code of what a read or a write answers while the database cannot be reached (a server
// that is down, restarting or refusing connections): HTTP 503, to be tried again. Each
// service answers it in its own error shape, with Retry-After (Database::readFailed,
// databaseUnavailable()).
inline constexpr char kDatabaseUnavailable[] = "database-unavailable";
inline constexpr int kDatabaseRetryAfterS = 1;
} // namespace Core

} // namespace Gatehouse
