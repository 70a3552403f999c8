import type { Catalog } from '../en';

/** Simplified Chinese strings of the Status page. */
export const statusChinese: Catalog['status'] = {
  title: '状态',
  subtitle: '本网关的配置，以及支付提供方最近一次通知的结果。只读。',
  configured: '已配置',
  notConfigured: '未配置',
  publicUrl: {
    title: '公开地址',
    unset: '未设置：提供方和浏览器将被引导到网关监听的地址。',
  },
  signIn: {
    title: '登录方式',
    password: '邮箱和密码',
    oidc: 'OpenID Connect',
    issuer: '签发方 {{host}}',
  },
  payments: {
    title: '支付方式',
    columns: { method: '方式', state: '状态', mode: '模式', lastWebhook: '最近通知', verified: '签名', outcome: '结果', order: '订单' },
    methods: { stripe: 'Stripe', alipay: '支付宝' },
    stripeTest: '测试模式',
    stripeLive: '正式',
    alipayPage: '网页支付（跳转）',
    alipayQr: '二维码',
    sandbox: '{{mode}}，沙箱',
    noWebhook: '尚未收到',
    verified: '已验证',
    notVerified: '验证失败',
  },
  outcomes: {
    credited: '已入账',
    unchanged: '重复（无变化）',
    failed: '支付失败',
    expired: '已过期',
    pending: '仍在等待',
    'amount-mismatch': '金额不符',
    'unknown-order': '未知订单',
    ignored: '已忽略',
    rejected: '已拒绝',
  },
};
