pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Navigation rail and the pages; Ctrl+1…9 switch pages. The pages are listed in the order of
// the Navigation model (tst_qml checks that they match).
Item {
    id: root

    property alias currentIndex: rail.currentIndex

    // Every tool tip shares one label: plain text, as every other label here (a verdict's
    // tool tip names users; markup in a name must not be read, nor an <img> fetched).
    Component.onCompleted: {
        const label = ToolTip.toolTip.contentItem as Text
        if (label)
            label.textFormat = Text.PlainText
    }

    signal connectRequested()

    // The RBAC page once it is made (showPage opens its tabs).
    property RbacPage rbacPage: null

    // The guided tour (opens by itself once per run against a demo backend).
    function startTour() {
        tour.begin()
    }

    // Switches to a page by its Navigation id, and to a section of it (the RBAC page's tabs).
    function showPage(pageId: string, section: string) {
        const row = Navigation.indexOf(pageId)
        if (row < 0)
            return
        root.currentIndex = row
        if (pageId === "rbac" && section.length > 0)
            root.rbacPage?.showSection(section)
    }

    // A place in the StackLayout for a page that is made the first time it is shown, and then
    // kept (its state, its scroll position): a console that only shows the Dashboard does not
    // pay for eight more pages. (Not a Loader: Qt 6.4's Loader cannot make a component of a
    // ComponentBehavior: Bound file, "Cannot instantiate bound component outside its creation
    // context"; createObject can.)
    component PageHolder: Item {
        id: holder

        property Component page
        property Item item: null
        // Set where it is placed: whether the StackLayout shows it. (Not StackLayout.isCurrentItem:
        // Qt 6.4 never frees that attached object.)
        property bool shown: false

        function make() {
            if (holder.shown && !holder.item)
                holder.item = holder.page.createObject(holder)
        }

        onShownChanged: make()
        Component.onCompleted: make()
    }

    RowLayout {
        anchors.fill: parent
        spacing: 0

        NavigationRail {
            id: rail
            Layout.fillHeight: true
            Layout.preferredWidth: Theme.railWidth
        }

        StackLayout {
            id: pages

            objectName: "pages"
            Layout.fillWidth: true
            Layout.fillHeight: true
            currentIndex: rail.currentIndex

            PageHolder {
                shown: pages.currentIndex === 0
                page: Component {
                    DashboardPage {
                        anchors.fill: parent
                        objectName: "page-dashboard"
                        onConnectRequested: root.connectRequested()
                        onPageRequested: (pageId, section) => root.showPage(pageId, section)
                    }
                }
            }
            PageHolder {
                shown: pages.currentIndex === 1
                page: Component {
                    ClientsPage {
                        anchors.fill: parent
                        objectName: "page-clients"
                    }
                }
            }
            PageHolder {
                shown: pages.currentIndex === 2
                page: Component {
                    TokensPage {
                        anchors.fill: parent
                        objectName: "page-tokens"
                    }
                }
            }
            PageHolder {
                shown: pages.currentIndex === 3
                page: Component {
                    OrdersPage {
                        anchors.fill: parent
                        objectName: "page-orders"
                    }
                }
            }
            PageHolder {
                shown: pages.currentIndex === 4
                page: Component {
                    DeliveriesPage {
                        anchors.fill: parent
                        objectName: "page-deliveries"
                    }
                }
            }
            PageHolder {
                shown: pages.currentIndex === 5
                page: Component {
                    NodesPage {
                        anchors.fill: parent
                        objectName: "page-nodes"
                    }
                }
            }
            PageHolder {
                shown: pages.currentIndex === 6
                page: Component {
                    RbacPage {
                        anchors.fill: parent
                        objectName: "page-rbac"
                        Component.onCompleted: root.rbacPage = this
                    }
                }
            }
            PageHolder {
                shown: pages.currentIndex === 7
                page: Component {
                    SettingsPage {
                        anchors.fill: parent
                        objectName: "page-settings"
                    }
                }
            }
            PageHolder {
                shown: pages.currentIndex === 8
                page: Component {
                    AuditPage {
                        anchors.fill: parent
                        objectName: "page-audit"
                    }
                }
            }
        }
    }

    Repeater {
        model: Navigation
        delegate: Item {
            id: shortcutHolder

            required property int index

            Shortcut {
                sequence: "Ctrl+" + (shortcutHolder.index + 1)
                onActivated: root.currentIndex = shortcutHolder.index
            }
        }
    }

    GuidedTour {
        id: tour
        parent: root
        showPage: (pageId, section) => root.showPage(pageId, section)
    }

    Connections {
        target: AdminClient
        property bool shown: false
        function onStatusChanged() {
            if (AdminClient.demoMode && !shown) {
                shown = true
                tour.begin()
            }
        }
    }
    Connections {
        target: rail
        function onTourRequested() { tour.begin() }
    }

    // An HTTPS admin API with a certificate to trust on first use.
    TrustCertificateDialog {
        id: trustDialog
    }
    Connections {
        target: AdminClient
        function onConnectionStateChanged() {
            if (AdminClient.connectionState === AdminClient.Untrusted)
                trustDialog.open()
        }
    }
}
