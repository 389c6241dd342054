#pragma once

// Kept apart from the test data: moc cannot read raw string literals with quotes.
#include <QObject>

class TestClusterCore : public QObject
{
    Q_OBJECT
private slots:
    void requestInfo_data();
    void requestInfo();
    void rbacRules_data();
    void rbacRules();
    void rbacBindings();
    void rbacReasonText();
    void bootstrapEditAndAdminLeaveStatusAlone();
    void nearMisses_data();
    void nearMisses();
    void nearMissMessages();
    void effectiveAccess();
    void escalation();
    void oidcGroups_data();
    void oidcGroups();
    void nodeAuthorizer_data();
    void nodeAuthorizer();
    void authorizerChainAndMessages();
    void validateModes();
    void tokenThatCannotBeCheckedNow();
    void forbiddenNodeLabels_data();
    void forbiddenNodeLabels();
    void nodeRestrictionMessages_data();
    void nodeRestrictionMessages();
    void namespaceLifecycle();
    void goldenStatus_data();
    void goldenStatus();
    void prettyStatus();
    void goEscaping();
    void labelValidation_data();
    void labelValidation();
    void ownerReferenceValidation_data();
    void ownerReferenceValidation();
    void clusterRoleAggregation();
    void serviceExternalIPs_data();
    void serviceExternalIPs();
    void updateValidation_data();
    void updateValidation();
    void selectors_data();
    void selectors();
};
