// @module public/js/shared/strings/dashboard-access — texts of the other ways
// in: "forgot password?" (when mail is configured) and single sign-on through
// the organization's identity provider, with the pages that refuse it.

export const dashboardAccessTexts = {
  en: {
    forgotPasswordLink: 'Forgot password?',
    ssoLink: 'Sign in with single sign-on',
    orDivider: 'or',
    backToSignIn: 'Back to sign-in',

    forgotTitle: 'Forgot your password?',
    forgotLead: 'Enter the email address you sign in with. We will send you a link to choose a new password.',
    forgotButton: 'Send link',
    forgotEmailInvalid: 'Enter an email address, such as name@example.org.',
    forgotThrottled: 'Too many requests from your network. Wait a few minutes, then try again.',
    forgotSent: 'If that address belongs to a member, a link is on its way.',
    forgotSentMore: 'The link works once, for one hour. Nothing arrived? Check your spam folder, or ask an administrator of your organization.',

    ssoTitle: 'Single sign-on',
    ssoLead: 'Sign in with your organization’s own account (for example your clinic’s Microsoft or Google account).',
    ssoOrganization: 'Organization',
    ssoOrganizationHint: 'Your organization’s short name in Foyer, such as “clinic-north”. Your administrator can tell you.',
    ssoButton: 'Continue',
    ssoOrganizationMissing: 'Enter your organization’s short name.',
    ssoUnknownOrganization: 'No single sign-on is set up for this organization. Check the name, or sign in with your password.',
    ssoProviderUnreachable: 'Your organization’s sign-in service cannot be reached right now. Try again in a moment.',
    ssoPasswordInstead: 'Sign in with email and password instead',

    ssoRefusedTitle: 'Single sign-on did not sign you in',
    ssoExpired: 'This sign-in attempt has expired or was started in another browser. Start again.',
    ssoFailed: 'Your organization’s sign-in service did not confirm this sign-in. Start again; if it keeps happening, tell your administrator.',
    ssoUnverified: 'Your organization’s sign-in service did not confirm that your email address is verified, so Foyer cannot tell who you are. Ask your administrator.',
    ssoNotAMember: 'Your account is not a member of this organization in Foyer. Foyer does not create members on its own: ask an administrator of your organization to add you.',
    ssoUnavailable: 'Single sign-on is no longer set up for this organization. Sign in with your password, or ask your administrator.',
    ssoTryAgain: 'Try again',
  },
  de: {
    forgotPasswordLink: 'Passwort vergessen?',
    ssoLink: 'Mit Single Sign-on anmelden',
    orDivider: 'oder',
    backToSignIn: 'Zurück zur Anmeldung',

    forgotTitle: 'Passwort vergessen?',
    forgotLead: 'Geben Sie die E-Mail-Adresse ein, mit der Sie sich anmelden. Wir senden Ihnen einen Link, um ein neues Passwort zu wählen.',
    forgotButton: 'Link senden',
    forgotEmailInvalid: 'Geben Sie eine E-Mail-Adresse ein, etwa name@beispiel.de.',
    forgotThrottled: 'Zu viele Anfragen aus Ihrem Netz. Warten Sie einige Minuten und versuchen Sie es dann erneut.',
    forgotSent: 'Wenn diese Adresse zu einem Mitglied gehört, ist ein Link unterwegs.',
    forgotSentMore: 'Der Link funktioniert einmal, eine Stunde lang. Nichts angekommen? Sehen Sie im Spam-Ordner nach oder fragen Sie eine Administratorin oder einen Administrator Ihrer Organisation.',

    ssoTitle: 'Single Sign-on',
    ssoLead: 'Melden Sie sich mit dem Konto Ihrer Organisation an (zum Beispiel dem Microsoft- oder Google-Konto Ihrer Praxis).',
    ssoOrganization: 'Organisation',
    ssoOrganizationHint: 'Der Kurzname Ihrer Organisation in Foyer, etwa „praxis-nord“. Ihre Administration kann ihn Ihnen nennen.',
    ssoButton: 'Weiter',
    ssoOrganizationMissing: 'Geben Sie den Kurznamen Ihrer Organisation ein.',
    ssoUnknownOrganization: 'Für diese Organisation ist kein Single Sign-on eingerichtet. Prüfen Sie den Namen oder melden Sie sich mit Ihrem Passwort an.',
    ssoProviderUnreachable: 'Der Anmeldedienst Ihrer Organisation ist gerade nicht erreichbar. Versuchen Sie es gleich noch einmal.',
    ssoPasswordInstead: 'Stattdessen mit E-Mail und Passwort anmelden',

    ssoRefusedTitle: 'Die Anmeldung per Single Sign-on hat nicht geklappt',
    ssoExpired: 'Dieser Anmeldeversuch ist abgelaufen oder wurde in einem anderen Browser begonnen. Beginnen Sie erneut.',
    ssoFailed: 'Der Anmeldedienst Ihrer Organisation hat diese Anmeldung nicht bestätigt. Beginnen Sie erneut; wenn es wieder passiert, wenden Sie sich an Ihre Administration.',
    ssoUnverified: 'Der Anmeldedienst Ihrer Organisation hat nicht bestätigt, dass Ihre E-Mail-Adresse verifiziert ist; daher kann Foyer Sie nicht zuordnen. Wenden Sie sich an Ihre Administration.',
    ssoNotAMember: 'Ihr Konto ist in Foyer kein Mitglied dieser Organisation. Foyer legt Mitglieder nicht selbst an: Bitten Sie eine Administratorin oder einen Administrator Ihrer Organisation, Sie hinzuzufügen.',
    ssoUnavailable: 'Für diese Organisation ist kein Single Sign-on mehr eingerichtet. Melden Sie sich mit Ihrem Passwort an oder wenden Sie sich an Ihre Administration.',
    ssoTryAgain: 'Erneut versuchen',
  },
};
