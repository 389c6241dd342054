#pragma once

#include <QLoggingCategory>

namespace Gatehouse::Crypto {
Q_DECLARE_LOGGING_CATEGORY(lcCrypto)
} // namespace Gatehouse::Crypto
