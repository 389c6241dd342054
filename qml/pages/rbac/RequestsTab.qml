pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The RBAC page's Requests tab: the cluster API's decisions as they happen, newest first; a
// denied one opens to why.
ColumnLayout {
    id: root

    required property bool online

    spacing: Theme.spacing

    ErrorBanner {
        objectName: "requestsError"
        Layout.fillWidth: true
        message: ClusterRequests.error
    }
    RowLayout {
        Layout.fillWidth: true
        spacing: 8
        Label {
            textFormat: Text.PlainText
            Layout.fillWidth: true
            text: qsTr("The cluster API's decisions as they happen, newest first; denied requests in red.")
            color: Theme.mutedText
            elide: Text.ElideRight
        }
        BusyIndicator {
            Layout.preferredWidth: 24
            Layout.preferredHeight: 24
            running: ClusterRequests.loading
            visible: running
        }
        CheckBox {
            id: deniedOnly
            objectName: "deniedOnlyCheck"
            text: qsTr("Denied only")
            checked: ClusterRequests.deniedOnly
            Accessible.name: qsTr("Show denied requests only")
            onToggled: ClusterRequests.deniedOnly = deniedOnly.checked
        }
        CheckBox {
            id: hideAdminReads
            objectName: "hideAdminReadsCheck"
            text: qsTr("Hide admin API reads")
            checked: ClusterRequests.hideAdminReads
            Accessible.name: qsTr("Hide the reads the admin API makes as gatehouse-admin, such as this console's own lists")
            onToggled: ClusterRequests.hideAdminReads = hideAdminReads.checked
        }
        Button {
            text: qsTr("Reload")
            enabled: root.online
            Accessible.name: qsTr("Reload the recent requests")
            onClicked: ClusterRequests.reload()
        }
    }
    LiveBadge {
        objectName: "requestListLive"
        Layout.fillWidth: true
        live: ClusterRequests.live
    }
    Card {
        Layout.fillWidth: true
        Layout.fillHeight: true
        clip: true

        ListView {
            id: requestList
            objectName: "requestList"
            anchors.fill: parent
            anchors.margins: 1
            clip: true
            model: ClusterRequests
            activeFocusOnTab: true
            keyNavigationEnabled: true
            boundsBehavior: Flickable.StopAtBounds
            Accessible.role: Accessible.List
            Accessible.name: qsTr("Cluster API requests")
            ScrollBar.vertical: ScrollBar {}
            // Space or Enter opens (or closes) the current denied row's explanation.
            Keys.onSpacePressed: ClusterRequests.toggleExpanded(requestList.currentIndex)
            Keys.onReturnPressed: ClusterRequests.toggleExpanded(requestList.currentIndex)
            Keys.onEnterPressed: ClusterRequests.toggleExpanded(requestList.currentIndex)

            delegate: Rectangle {
                id: requestRow

                required property int index
                required property string timeText
                required property string user
                required property string groupsText
                required property string method
                required property string path
                required property int code
                required property bool denied
                required property string stage
                required property string reason
                required property string denialHeadline
                required property var quotes
                required property var nearMisses
                required property int nearMissCount
                required property bool expanded

                objectName: "request-" + requestRow.index
                width: ListView.view.width
                implicitHeight: requestContent.implicitHeight + 14
                color: requestRow.denied ? Theme.errorSoft
                       : requestRow.index % 2 === 0 ? Theme.surface : Theme.stripe
                border.color: requestRow.ListView.isCurrentItem && requestList.activeFocus ? Theme.accent : "transparent"
                Accessible.role: Accessible.ListItem
                Accessible.name: requestRow.denied
                                 ? qsTr("Denied: %1 %2 by %3, %4 at %5: %6").arg(requestRow.method).arg(requestRow.path)
                                       .arg(requestRow.user).arg(requestRow.code).arg(requestRow.stage).arg(requestRow.reason)
                                 : qsTr("%1 %2 by %3, %4").arg(requestRow.method).arg(requestRow.path)
                                       .arg(requestRow.user).arg(requestRow.code)

                Rectangle {
                    width: 3
                    height: parent.height
                    color: Theme.error
                    visible: requestRow.denied
                }
                RowLayout {
                    id: requestContent
                    anchors.left: parent.left
                    anchors.right: parent.right
                    anchors.verticalCenter: parent.verticalCenter
                    anchors.leftMargin: 14
                    anchors.rightMargin: 12
                    spacing: 12

                    Label {
                        textFormat: Text.PlainText
                        Layout.preferredWidth: 70
                        Layout.alignment: Qt.AlignTop
                        text: requestRow.timeText
                        color: Theme.mutedText
                        font.family: Theme.monoFont
                        font.pixelSize: 12
                    }
                    StatusBadge {
                        objectName: "requestCode"
                        Layout.preferredWidth: 52
                        Layout.alignment: Qt.AlignTop
                        family: requestRow.denied ? "exception" : "ok"
                        text: String(requestRow.code)
                    }
                    ColumnLayout {
                        Layout.fillWidth: true
                        spacing: 2
                        RowLayout {
                            Layout.fillWidth: true
                            spacing: 8
                            Label {
                                textFormat: Text.PlainText
                                objectName: "requestLine"
                                Layout.fillWidth: true
                                text: requestRow.method + " " + requestRow.path
                                color: Theme.text
                                font.family: Theme.monoFont
                                font.pixelSize: 12
                                font.weight: Font.DemiBold
                                elide: Text.ElideMiddle
                            }
                            StatusBadge {
                                objectName: "deniedBadge"
                                visible: requestRow.denied
                                family: "exception"
                                text: qsTr("denied at %1").arg(requestRow.stage)
                            }
                            // A denied row opens to the denial explainer's answer.
                            Button {
                                id: whyButton
                                objectName: "whyButton"
                                visible: requestRow.denied
                                flat: true
                                padding: 2
                                leftPadding: 8
                                rightPadding: 8
                                font.pixelSize: 12
                                text: (requestRow.expanded ? "▾ " : "▸ ")
                                      + (requestRow.nearMissCount === 0 ? qsTr("Why denied")
                                         : requestRow.nearMissCount === 1 ? qsTr("Why denied · 1 near miss")
                                         : qsTr("Why denied · %1 near misses").arg(requestRow.nearMissCount))
                                Accessible.name: requestRow.expanded ? qsTr("Hide why the request was denied")
                                                                     : qsTr("Show why the request was denied")
                                onClicked: ClusterRequests.setExpanded(requestRow.index, !requestRow.expanded)
                            }
                        }
                        Label {
                            textFormat: Text.PlainText
                            objectName: "requestUser"
                            Layout.fillWidth: true
                            text: requestRow.user.length === 0 ? qsTr("no user: not authenticated")
                                  : requestRow.groupsText.length > 0 ? qsTr("%1 (%2)").arg(requestRow.user).arg(requestRow.groupsText)
                                  : requestRow.user
                            color: Theme.mutedText
                            font.pixelSize: 12
                            elide: Text.ElideRight
                        }
                        Label {
                            objectName: "requestReason"
                            Layout.fillWidth: true
                            visible: requestRow.reason.length > 0
                            text: requestRow.reason // the server's words
                            color: requestRow.denied ? Theme.error : Theme.mutedText
                            font.pixelSize: 12
                            wrapMode: Text.Wrap
                            maximumLineCount: 3
                            elide: Text.ElideRight
                            textFormat: Text.PlainText
                        }
                        DenialDetails {
                            objectName: "requestDenial"
                            Layout.fillWidth: true
                            Layout.topMargin: 4
                            Layout.bottomMargin: 4
                            visible: requestRow.denied && requestRow.expanded
                            headline: requestRow.denialHeadline
                            stage: requestRow.stage
                            quotes: requestRow.quotes
                            nearMisses: requestRow.nearMisses
                        }
                    }
                }
            }
        }
        Label {
            textFormat: Text.PlainText
            anchors.centerIn: parent
            width: parent.width - 40
            visible: requestList.count === 0 && ClusterRequests.loaded && !ClusterRequests.loading
            horizontalAlignment: Text.AlignHCenter
            wrapMode: Text.Wrap
            text: ClusterRequests.totalCount > 0
                  ? qsTr("No request matches the filters.")
                  : qsTr("No cluster API requests yet. Apply a label change on the Nodes page, or point kubectl at the cluster listener.")
            color: Theme.mutedText
        }

        NotPermittedPane {
            live: ClusterRequests.live
        }
    }
}
