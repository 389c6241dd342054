import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The window's header: product, current page, where the console is connected to, the
// language and the theme (each switches at once and is remembered for the next start).
ToolBar {
    id: root

    property string pageTitle

    signal connectRequested()

    implicitHeight: 52
    leftPadding: 0
    rightPadding: 0
    topPadding: 0
    bottomPadding: 0
    background: Rectangle {
        color: Theme.surface
        Rectangle {
            anchors.left: parent.left
            anchors.right: parent.right
            anchors.bottom: parent.bottom
            height: 1
            color: Theme.border
        }
    }

    RowLayout {
        anchors.fill: parent
        spacing: Theme.spacing

        Rectangle {
            Layout.preferredWidth: Theme.railWidth
            Layout.fillHeight: true
            color: Theme.rail

            Row {
                anchors.verticalCenter: parent.verticalCenter
                x: 16
                spacing: 10

                Image {
                    anchors.verticalCenter: parent.verticalCenter
                    source: "qrc:/Gatehouse/icons/gatehouse.png"
                    sourceSize.width: 26
                    sourceSize.height: 26
                    Accessible.ignored: true
                }
                Label {
                    textFormat: Text.PlainText
                    anchors.verticalCenter: parent.verticalCenter
                    text: qsTr("Gatehouse")
                    color: Theme.railSelectedText
                    font.pixelSize: 17
                    font.weight: Font.DemiBold
                }
            }
        }

        Label {
            textFormat: Text.PlainText
            objectName: "pageTitle"
            Layout.leftMargin: Theme.spacing
            text: root.pageTitle
            color: Theme.text
            font.pixelSize: 17
            font.weight: Font.DemiBold
            elide: Text.ElideRight
            Layout.fillWidth: true
        }

        ConnectionIndicator {
            Layout.alignment: Qt.AlignVCenter
        }

        Label {
            textFormat: Text.PlainText
            text: AdminClient.adminUrlText
            visible: text.length > 0
            color: Theme.mutedText
            // Gives way (elided) with the page title when the window is narrow.
            elide: Text.ElideMiddle
            Layout.fillWidth: true
            Layout.maximumWidth: Math.ceil(implicitWidth) // (a fraction less would elide it)
            Accessible.name: qsTr("Server URL %1").arg(text)
        }

        Label {
            textFormat: Text.PlainText
            text: qsTr("v%1").arg(AdminClient.serverVersion)
            visible: AdminClient.serverVersion.length > 0
            color: Theme.mutedText
            Accessible.name: qsTr("Server version %1").arg(AdminClient.serverVersion)
        }

        ComboBox {
            id: languageCombo

            objectName: "languageSelector"
            Layout.alignment: Qt.AlignVCenter
            model: Language.options
            textRole: "text"
            valueRole: "value"
            flat: true
            Accessible.name: qsTr("Language")
            ToolTip.visible: hovered && !popup.visible
            ToolTip.delay: 600
            ToolTip.text: qsTr("Language of the console")
            // As wide as its longest entry: the header does not move when it changes.
            implicitContentWidthPolicy: ComboBox.WidestText
            onActivated: Language.choose(languageCombo.currentValue)
            Component.onCompleted: currentIndex = Language.currentIndex

            // After the options (their "System" row is translated too, which resets the index).
            Connections {
                target: Language
                function onChanged() {
                    languageCombo.currentIndex = Language.currentIndex
                }
            }
        }

        ComboBox {
            id: themeCombo

            objectName: "themeSelector"
            Layout.alignment: Qt.AlignVCenter
            model: Appearance.options
            textRole: "text"
            valueRole: "value"
            flat: true
            Accessible.name: qsTr("Theme")
            ToolTip.visible: hovered && !popup.visible
            ToolTip.delay: 600
            ToolTip.text: qsTr("Light or dark colours (System: as the desktop)")
            implicitContentWidthPolicy: ComboBox.WidestText
            onActivated: Appearance.choose(themeCombo.currentValue)
            Component.onCompleted: currentIndex = Appearance.currentIndex

            // After the options ("System (Dark)" follows the desktop and the language).
            Connections {
                target: Appearance
                function onChanged() {
                    themeCombo.currentIndex = Appearance.currentIndex
                }
            }
        }

        Button {
            objectName: "connectButton"
            Layout.rightMargin: Theme.spacing
            text: qsTr("Connect…")
            flat: true
            Accessible.name: qsTr("Connect to a server")
            ToolTip.visible: hovered
            ToolTip.delay: 600
            ToolTip.text: qsTr("Choose the admin URL and token")
            onClicked: root.connectRequested()
        }
    }
}
