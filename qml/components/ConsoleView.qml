pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Layouts
import Gatehouse

// Navigation rail and the pages; Ctrl+1…9 switch pages. The pages are listed in the order of
// the Navigation model (tst_qml checks that they match).
Item {
    id: root

    property alias currentIndex: rail.currentIndex

    signal connectRequested()

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
            rbacPage.showSection(section)
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

            DashboardPage {
                objectName: "page-dashboard"
                onConnectRequested: root.connectRequested()
                onPageRequested: (pageId, section) => root.showPage(pageId, section)
            }
            ClientsPage {
                objectName: "page-clients"
            }
            TokensPage {
                objectName: "page-tokens"
            }
            OrdersPage {
                objectName: "page-orders"
            }
            DeliveriesPage {
                objectName: "page-deliveries"
            }
            NodesPage {
                objectName: "page-nodes"
            }
            RbacPage {
                id: rbacPage
                objectName: "page-rbac"
            }
            SettingsPage {
                objectName: "page-settings"
            }
            AuditPage {
                objectName: "page-audit"
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
