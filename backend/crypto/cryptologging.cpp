#include "crypto/cryptologging.h"

namespace Gatehouse::Crypto {
Q_LOGGING_CATEGORY(lcCrypto, "gatehouse.crypto")
} // namespace Gatehouse::Crypto
