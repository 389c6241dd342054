#pragma once

#include <QObject>

class QQmlEngine;

namespace Gatehouse::Console {

class AccessView;
class AdminClient;
class AuditDetail;
class AuditLogModel;
class BeerListModel;
class ClientForm;
class ClientListModel;
class ClusterRequestModel;
class ClusterSettingsState;
class OrderLifecycleState;
class ConsoleAppearance;
class ConsoleLanguage;
class CustomerListModel;
class SettingsModel;
class DashboardStats;
class DeliveryDetail;
class DeliveryListModel;
class EndpointListModel;
class EventListModel;
class JwtInspector;
class KubeconfigForm;
class NavigationModel;
class NodeLabelEditor;
class NodeListModel;
class OrderDetail;
class OrderListModel;
class RbacBindingModel;
class RbacRoleModel;
class RedeliveryForm;
class TestOrderForm;
class TokenListModel;
class TokenPreview;
class WhoCanModel;

// The console's service objects, wired together. run() makes one and publishes it to its
// engine; QML sees the members as the singletons AdminClient, EventModel, Navigation, Orders,
// OrderDetail, OrderLifecycle, Deliveries, DeliveryDetail, Endpoints, Customers, Beers, TestOrder,
// Clients, ClientForm, Tokens, JwtInspector, Nodes, NodeEditor, ClusterSettings, RbacRoles,
// RbacBindings, WhoCan, ClusterRequests, KubeconfigForm, AuditLog, AuditDetail, Redelivery,
// TokenPreview, Access, DashboardStats, Language and Appearance (see qmlsingletons.h). Tests
// publish their own instance to their own engine. When the language changes (Language), every
// service whose texts come from C++ is told to announce them again (retranslate()).
class ConsoleServices : public QObject
{
    Q_OBJECT

public:
    explicit ConsoleServices(QObject *parent = nullptr);
    ~ConsoleServices() override;

    AdminClient *adminClient() const { return m_adminClient; }
    EventListModel *eventModel() const { return m_eventModel; }
    NavigationModel *navigation() const { return m_navigation; }
    OrderListModel *orders() const { return m_orders; }
    OrderDetail *orderDetail() const { return m_orderDetail; }
    DeliveryListModel *deliveries() const { return m_deliveries; }
    DeliveryDetail *deliveryDetail() const { return m_deliveryDetail; }
    EndpointListModel *endpoints() const { return m_endpoints; }
    CustomerListModel *customers() const { return m_customers; }
    BeerListModel *beers() const { return m_beers; }
    TestOrderForm *testOrder() const { return m_testOrder; }
    ClientListModel *clients() const { return m_clients; }
    ClientForm *clientForm() const { return m_clientForm; }
    TokenListModel *tokens() const { return m_tokens; }
    JwtInspector *jwtInspector() const { return m_jwtInspector; }
    NodeListModel *nodes() const { return m_nodes; }
    NodeLabelEditor *nodeEditor() const { return m_nodeEditor; }
    ClusterSettingsState *clusterSettings() const { return m_clusterSettings; }
    OrderLifecycleState *orderLifecycle() const { return m_orderLifecycle; }
    RbacRoleModel *rbacRoles() const { return m_rbacRoles; }
    RbacBindingModel *rbacBindings() const { return m_rbacBindings; }
    WhoCanModel *whoCan() const { return m_whoCan; }
    ClusterRequestModel *clusterRequests() const { return m_clusterRequests; }
    KubeconfigForm *kubeconfigForm() const { return m_kubeconfigForm; }
    AuditLogModel *auditLog() const { return m_auditLog; }
    AuditDetail *auditDetail() const { return m_auditDetail; }
    RedeliveryForm *redelivery() const { return m_redelivery; }
    TokenPreview *tokenPreview() const { return m_tokenPreview; }
    AccessView *access() const { return m_access; }
    SettingsModel *settings() const { return m_settings; }
    ConsoleLanguage *language() const { return m_language; }
    DashboardStats *dashboardStats() const { return m_dashboardStats; }
    ConsoleAppearance *appearance() const { return m_appearance; }

    // Makes these instances the Gatehouse singletons of engine, and makes the Gatehouse QML
    // module importable there. Call before the engine loads anything that imports Gatehouse.
    void publishTo(QQmlEngine *engine);
    // The services published to engine, nullptr if none were.
    static ConsoleServices *of(const QQmlEngine *engine);

    // Every model and service announces its translated texts again (the language changed).
    void retranslate();

private:
    AdminClient *m_adminClient;
    EventListModel *m_eventModel;
    NavigationModel *m_navigation;
    BeerListModel *m_beers;
    CustomerListModel *m_customers;
    OrderListModel *m_orders;
    OrderDetail *m_orderDetail;
    DeliveryListModel *m_deliveries;
    DeliveryDetail *m_deliveryDetail;
    EndpointListModel *m_endpoints;
    TestOrderForm *m_testOrder;
    ClientListModel *m_clients;
    ClientForm *m_clientForm;
    TokenListModel *m_tokens;
    JwtInspector *m_jwtInspector;
    NodeListModel *m_nodes;
    ClusterSettingsState *m_clusterSettings;
    OrderLifecycleState *m_orderLifecycle;
    NodeLabelEditor *m_nodeEditor;
    RbacRoleModel *m_rbacRoles;
    RbacBindingModel *m_rbacBindings;
    WhoCanModel *m_whoCan;
    ClusterRequestModel *m_clusterRequests;
    KubeconfigForm *m_kubeconfigForm;
    AuditLogModel *m_auditLog;
    AuditDetail *m_auditDetail;
    RedeliveryForm *m_redelivery;
    TokenPreview *m_tokenPreview;
    AccessView *m_access;
    SettingsModel *m_settings;
    ConsoleLanguage *m_language;
    DashboardStats *m_dashboardStats;
    ConsoleAppearance *m_appearance;
};

} // namespace Gatehouse::Console
