pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import Gatehouse

// The JWT decoder: paste any JWT (and, optionally, the key to verify it with and the
// audience and issuer to expect); the server decodes and checks it. Left the input, right
// the verdict with its reasons, the expiry countdown, the time claims in local time, and
// header and payload. The input and the result are in jwt/.
RowLayout {
    id: root

    spacing: Theme.spacing

    JwtInputCard {
        Layout.fillWidth: true
        Layout.preferredWidth: 5
        Layout.alignment: Qt.AlignTop
    }

    JwtResultCard {
        objectName: "jwtResult"
        Layout.fillWidth: true
        Layout.preferredWidth: 6
        Layout.alignment: Qt.AlignTop
    }
}
